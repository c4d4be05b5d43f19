/* For checking the Windows binaries under wine older than 9 only (never shipped): Rust's
 * standard library asks bcryptprimitives.dll's ProcessPrng for random bytes, which Windows 10
 * has and wine 8 lacks. This stand-in answers from advapi32's RtlGenRandom.
 * scripts/release builds it into its own wine prefix when wine cannot start a binary without. */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!RtlGenRandom(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
