/* GC event payloads captured from .NET 10.0.12, shared by the unit tests of
 * the .NET GC events (test_dotnet_gc.c, test_dotnet_live.c). */
#ifndef GCTOP_TESTS_UNIT_DOTNET_CAPTURED_H
#define GCTOP_TESTS_UNIT_DOTNET_CAPTURED_H

#include <stdint.h>

/* GCHeapStats_V2 (110 bytes): sizes gen0 0x55c7b8, gen1 0x3c9de8, gen2
 * 0x08bf70, LOH 0x64bc78, POH 0x1ff8; promoted gen0 0x3c1680, gen1
 * 0x06c3f0, gen2 0x03a418, LOH 0x30d580, POH 0 */
static const uint8_t heap_stats[110] = {
	0xb8, 0xc7, 0x55, 0, 0, 0, 0, 0, 0x80, 0x16, 0x3c, 0, 0, 0, 0, 0, 0xe8, 0x9d, 0x3c, 0, 0, 0, 0, 0,
	0xf0, 0xc3, 0x06, 0, 0, 0, 0, 0, 0x70, 0xbf, 0x08, 0, 0, 0, 0, 0, 0x18, 0xa4, 0x03, 0, 0, 0, 0, 0,
	0x78, 0xbc, 0x64, 0, 0, 0, 0, 0, 0x80, 0xd5, 0x30, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0x12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x5e, 0, 0, 0, 0, 0, 0xf8, 0x1f, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

#endif
