//! `agentwire gcx …`

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use agentwire::Error;
use agentwire::gcx::document::{RowWriter, encode_document, item_to_value, write_section_open};
use agentwire::gcx::{
    self, Compat, DEFAULT_MAX_CELLS, DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_ROWS,
    DEFAULT_MAX_SECTIONS, DecodeOptions, Decoder, EncodeOptions, Header, Item, Strategy,
    ToolLayout, ToolOptions,
};
use agentwire::json::{self, Value, WriteOptions};
use clap::Subcommand;

#[derive(Subcommand)]
pub enum GcxCommand {
    /// Encode a JSON document of sections to GCX1:
    /// `[{"tool": "t", "fields": ["a"], "meta": {"k": "v"}, "rows": [["x"]]}]`.
    Encode {
        /// Refuse what decoders cannot read back instead of matching gcx-go byte for byte.
        #[arg(long)]
        lossless: bool,
        /// checked (default): gcx-go's bytes, refusing text decoders reject (GCX_UNDECODABLE);
        /// gcx-go: gcx-go's bytes for every input.
        #[arg(long, default_value = "checked")]
        compat: String,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
    /// Encode any JSON value with the generic fallback (gcx-go `EncodeAny`).
    EncodeGeneric {
        /// Tool name for the header.
        #[arg(long)]
        tool: String,
        /// Refuse what decoders cannot read back instead of matching gcx-go byte for byte.
        #[arg(long)]
        lossless: bool,
        /// checked (default): gcx-go's bytes, refusing text decoders reject (GCX_UNDECODABLE);
        /// gcx-go: gcx-go's bytes for every input.
        #[arg(long, default_value = "checked")]
        compat: String,
        /// Keep numbers as written (`1.0` stays `1.0`) instead of typed numbers.
        #[arg(long)]
        literal_numbers: bool,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
    /// Encode a tool response by its layout (see `gcx layouts`), falling back to the generic
    /// encoder when the response does not fit; or by another strategy.
    EncodeTool {
        /// Tool name (selects the layout).
        #[arg(long)]
        tool: String,
        /// layout (default), generic, or bench (the upstream benchmark's encoder).
        #[arg(long, default_value = "layout")]
        strategy: String,
        /// With the layout strategy: fail (GCX_LAYOUT_MISMATCH, saying why) instead of falling
        /// back to the generic encoder when the response does not fit the layout.
        #[arg(long)]
        strict: bool,
        /// A JSON file with an array of extra layouts (same form as `gcx layouts` prints).
        #[arg(long)]
        layouts: Option<PathBuf>,
        /// Refuse what decoders cannot read back instead of matching gcx-go byte for byte.
        #[arg(long)]
        lossless: bool,
        /// checked (default): gcx-go's bytes, refusing text decoders reject (GCX_UNDECODABLE);
        /// gcx-go: gcx-go's bytes for every input.
        #[arg(long, default_value = "checked")]
        compat: String,
        /// Keep numbers as written (`1.0` stays `1.0`) instead of typed numbers.
        #[arg(long)]
        literal_numbers: bool,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
    /// Print the built-in per-tool layouts as JSON.
    Layouts,
    /// Decode GCX1 to JSON `{"sections": [...]}`, streaming with bounded memory: sections and
    /// rows are written as they are read, so on a bad row the command stops with exit 1 and
    /// the error on stderr, after the output so far (then not a complete JSON document).
    Decode {
        /// Line limit: a line must be shorter than this many bytes (gcx-go's 4 MiB by default).
        #[arg(long, default_value_t = DEFAULT_MAX_LINE_BYTES)]
        max_line_bytes: usize,
        /// Most sections in the input.
        #[arg(long, default_value_t = DEFAULT_MAX_SECTIONS)]
        max_sections: usize,
        /// Most rows in the input, all sections together.
        #[arg(long, default_value_t = DEFAULT_MAX_ROWS)]
        max_rows: usize,
        /// Most values (one per field for every row, padding included).
        #[arg(long, default_value_t = DEFAULT_MAX_CELLS)]
        max_cells: usize,
        /// Write one JSON item per line (`section`, `row`, `comment`) instead of one document.
        #[arg(long)]
        items: bool,
        /// Include comment lines (with --items).
        #[arg(long)]
        comments: bool,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
}

pub fn run(command: GcxCommand) -> Result<ExitCode, Error> {
    match command {
        GcxCommand::Encode {
            lossless,
            compat,
            file,
        } => {
            let text = crate::read_text(file.as_ref())?;
            let document = json::parse(&text)?;
            write_stdout(&encode_document(
                &document,
                &EncodeOptions {
                    lossless,
                    compat: Compat::parse(&compat)?,
                    ..EncodeOptions::default()
                },
            )?)
        }
        GcxCommand::EncodeGeneric {
            tool,
            lossless,
            compat,
            literal_numbers,
            file,
        } => {
            let text = crate::read_text(file.as_ref())?;
            let options = EncodeOptions {
                lossless,
                compat: Compat::parse(&compat)?,
                literal_numbers,
                ..EncodeOptions::default()
            };
            let value = json::parse_with(&text, &options.parse_options())?;
            write_stdout(&gcx::encode_generic(&tool, &value, &options)?)
        }
        GcxCommand::EncodeTool {
            tool,
            strategy,
            strict,
            layouts,
            lossless,
            compat,
            literal_numbers,
            file,
        } => {
            let mut options = ToolOptions {
                strategy: Strategy::parse(&strategy)?,
                strict,
                encode: EncodeOptions {
                    lossless,
                    compat: Compat::parse(&compat)?,
                    literal_numbers,
                    ..EncodeOptions::default()
                },
                ..ToolOptions::default()
            };
            if let Some(path) = layouts {
                let text = crate::read_text(Some(&path))?;
                let extra = json::parse(&text).map_err(|e| e.context(path.display()))?;
                let list = extra.as_array().ok_or_else(|| {
                    Error::new(
                        agentwire::ErrorKind::InvalidArgument,
                        format!("{}: expected an array of layouts", path.display()),
                    )
                })?;
                for layout in list {
                    options.layouts.register(ToolLayout::from_value(layout)?);
                }
            }
            let text = crate::read_text(file.as_ref())?;
            let response = json::parse_with(&text, &options.encode.parse_options())?;
            write_stdout(&gcx::encode_tool(&tool, &response, &options)?)
        }
        GcxCommand::Layouts => {
            let layouts = gcx::Layouts::builtin().all();
            let list = Value::Array(layouts.iter().map(ToolLayout::to_value).collect());
            write_stdout(&(json_text(&list)? + "\n"))
        }
        GcxCommand::Decode {
            max_line_bytes,
            max_sections,
            max_rows,
            max_cells,
            items,
            comments,
            file,
        } => {
            let options = DecodeOptions {
                max_line_bytes,
                max_sections,
                max_rows,
                max_cells,
                comments: comments && items,
                ..DecodeOptions::default()
            };
            let input: Box<dyn Read> = match &file {
                Some(path) if path.as_os_str() != "-" => {
                    Box::new(File::open(path).map_err(|e| {
                        Error::new(agentwire::ErrorKind::Io, format!("{}: {e}", path.display()))
                    })?)
                }
                _ => Box::new(io::stdin().lock()),
            };
            let mut out = BufWriter::new(crate::stdout());
            let outcome = if items {
                decode_items(input, options, &mut out)
            } else {
                decode_document_stream(input, options, &mut out)
            };
            out.flush()?;
            outcome.map(|()| ExitCode::SUCCESS)
        }
    }
}

fn write_stdout(text: &str) -> Result<ExitCode, Error> {
    let mut out = crate::stdout();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn json_text(value: &Value) -> Result<String, Error> {
    json::to_string(value, WriteOptions::PLAIN)
}

/// Feeds `input` to a push decoder in 64 KiB chunks, handing each item (and the current
/// header) to `on_item`; stops at the first error (gcx-go's canonical procedure).
fn pump(
    mut input: impl Read,
    options: DecodeOptions,
    mut on_item: impl FnMut(&Item<'_>, Option<&Header>) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut decoder = Decoder::new(options);
    let mut header: Option<Header> = None;
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        while let Some(item) = decoder.next()? {
            if let Item::Section(h) = &item {
                header = Some((*h).clone());
            }
            on_item(&item, header.as_ref())?;
        }
        if decoder.is_finished() {
            return Ok(());
        }
        let n = input.read(&mut chunk)?;
        if n == 0 {
            decoder.finish();
        } else {
            decoder.push(&chunk[..n]);
        }
    }
}

fn decode_items(
    input: impl Read,
    options: DecodeOptions,
    out: &mut impl Write,
) -> Result<(), Error> {
    pump(input, options, |item, header| {
        let fields = header.map_or(&[][..], |h| &h.fields[..]);
        writeln!(out, "{}", json_text(&item_to_value(item, fields))?)?;
        Ok(())
    })
}

/// Writes `{"sections":[...]}` as the items arrive; on error the document written so far is
/// closed (valid JSON of what was read) and the error returned.
fn decode_document_stream(
    input: impl Read,
    options: DecodeOptions,
    out: &mut impl Write,
) -> Result<(), Error> {
    out.write_all(b"{\"sections\":[")?;
    let mut sections = 0usize;
    let mut rows_in_section = 0usize;
    let mut row_writer = RowWriter::new(&[]);
    let mut text = String::new();
    let result = pump(input, options, |item, _| {
        text.clear();
        match item {
            Item::Section(header) => {
                if sections > 0 {
                    text.push_str("]},");
                }
                sections += 1;
                rows_in_section = 0;
                write_section_open(&mut text, header)?;
                row_writer = RowWriter::new(&header.fields);
            }
            Item::Row(values) => {
                if rows_in_section > 0 {
                    text.push(',');
                }
                rows_in_section += 1;
                row_writer.write(&mut text, values);
            }
            Item::Comment(_) => {}
        }
        out.write_all(text.as_bytes())?;
        Ok(())
    });
    if sections > 0 {
        out.write_all(b"]}")?;
    }
    out.write_all(b"]}\n")?;
    result
}
