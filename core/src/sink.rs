//! Where text encoders write: a `String`, a `Vec<u8>`, or (with `std`) any `std::io::Write`.
//!
//! ```
//! use agentwire::sink::Sink;
//! let mut out = Vec::<u8>::new();
//! out.write_str("GCX1 ")?;
//! assert_eq!(out, b"GCX1 ");
//! # Ok::<(), agentwire::Error>(())
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use crate::Result;

/// A destination for encoded text. Encoders hand it whole lines.
///
/// ```
/// use agentwire::sink::Sink;
/// // Encoders take any sink; a `String` collects the lines.
/// fn header(out: &mut impl Sink) -> agentwire::Result<()> {
///     out.write_str("GCX1 tool=t fields=a\n")
/// }
/// let mut text = String::new();
/// header(&mut text)?;
/// assert_eq!(text, "GCX1 tool=t fields=a\n");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub trait Sink {
    /// Appends `text`.
    ///
    /// ```
    /// use agentwire::sink::Sink;
    /// let mut out = String::from("a");
    /// out.write_str("\tb")?;
    /// assert_eq!(out, "a\tb");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    fn write_str(&mut self, text: &str) -> Result<()>;
}

impl Sink for String {
    fn write_str(&mut self, text: &str) -> Result<()> {
        self.push_str(text);
        Ok(())
    }
}

impl Sink for Vec<u8> {
    fn write_str(&mut self, text: &str) -> Result<()> {
        self.extend_from_slice(text.as_bytes());
        Ok(())
    }
}

impl<S: Sink + ?Sized> Sink for &mut S {
    fn write_str(&mut self, text: &str) -> Result<()> {
        (**self).write_str(text)
    }
}

/// Adapts a `std::io::Write` (a file, stdout, a socket) into a [`Sink`]; I/O errors become
/// [`ErrorKind::Io`](crate::ErrorKind::Io).
///
/// ```
/// use agentwire::sink::{IoSink, Sink};
/// let mut sink = IoSink(std::io::Cursor::new(Vec::new()));
/// sink.write_str("GCX1 ")?;
/// sink.write_str("tool=t\n")?;
/// assert_eq!(sink.0.into_inner(), b"GCX1 tool=t\n");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[cfg(feature = "std")]
#[derive(Debug)]
pub struct IoSink<W>(pub W);

#[cfg(feature = "std")]
impl<W: std::io::Write> Sink for IoSink<W> {
    fn write_str(&mut self, text: &str) -> Result<()> {
        self.0.write_all(text.as_bytes())?;
        Ok(())
    }
}
