/* Test-only stand-in for Windows' bcryptprimitives.dll under Wine 8.0 (README.md): Rust's std
 * (>= 1.78) imports ProcessPrng from it, Windows 10+ has it, and Wine only since 8.13. It fills
 * the buffer from BCryptGenRandom, which Wine does have. Never shipped. */
#include <windows.h>
#include <bcrypt.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
  while (len > 0) {
    ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
    if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, data, chunk, BCRYPT_USE_SYSTEM_PREFERRED_RNG))) return FALSE;
    data += chunk;
    len -= chunk;
  }
  return TRUE;
}
