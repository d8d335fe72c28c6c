/* The diagnostics IPC protocol's bytes: message framing, payload encoding and
 * reply decoding. Pure functions over buffers (no sockets), so they can be
 * unit-tested and fuzzed on crafted bytes. */
#ifndef GCTOP_COLLECTORS_DIAG_IPC_WIRE_H
#define GCTOP_COLLECTORS_DIAG_IPC_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cursor.h"

#define GT_DIAG_HEADER_SIZE 20
/* The header's size field is a u16: no message is larger. */
#define GT_DIAG_MAX_MESSAGE 65535

enum {
	GT_DIAG_SET_EVENTPIPE = 0x02,
	GT_DIAG_SET_PROCESS = 0x04,
	GT_DIAG_SET_SERVER = 0xFF,
};

enum {
	GT_DIAG_EP_STOP = 0x01,
	GT_DIAG_EP_COLLECT = 0x02,
	GT_DIAG_EP_COLLECT2 = 0x03,
	GT_DIAG_EP_COLLECT3 = 0x04,
	GT_DIAG_EP_COLLECT4 = 0x05,
	GT_DIAG_EP_COLLECT5 = 0x06,
	GT_DIAG_PROC_INFO = 0x00,
	GT_DIAG_PROC_INFO2 = 0x04,
	GT_DIAG_PROC_INFO3 = 0x08,
	GT_DIAG_SERVER_OK = 0x00,
	GT_DIAG_SERVER_ERROR = 0xFF,
};

#define GT_DIAG_HR_UNKNOWN_COMMAND 0x80131385u

struct gt_diag_header {
	uint16_t size;          /* header + payload */
	uint8_t command_set;
	uint8_t command_id;
};

/* A request being built; overflow latches instead of writing past the end. */
struct gt_diag_msg {
	uint8_t data[GT_DIAG_MAX_MESSAGE];
	size_t len;
	bool overflow;
};

void gt_diag_msg_begin(struct gt_diag_msg *m, uint8_t command_set, uint8_t command_id);
void gt_diag_put_u8(struct gt_diag_msg *m, uint8_t v);
void gt_diag_put_u32(struct gt_diag_msg *m, uint32_t v);
void gt_diag_put_u64(struct gt_diag_msg *m, uint64_t v);
/* An IPC string: u32 count of UTF-16 units including the NUL, then the units;
 * count 0 for an empty string. ASCII input only (provider names, arguments). */
void gt_diag_put_string(struct gt_diag_msg *m, const char *ascii);
/* Writes the size into the header; -1 when the message overflowed. */
int gt_diag_msg_finish(struct gt_diag_msg *m);

/* Checks magic and size (>= header size). 0, or -1 for a malformed header. */
int gt_diag_parse_header(const uint8_t *b, size_t n, struct gt_diag_header *h);

/* Reads an IPC string (a u32 count of UTF-16 units, the NUL included, then
 * the units) into out (UTF-8, truncated to out_size); replies are read with
 * base/cursor.h. */
void gt_diag_get_string(struct gt_cursor *r, char *out, size_t out_size);

struct gt_diag_process_info {
	uint64_t pid;                 /* as seen inside the target's pid namespace */
	char command_line[1024];
	char os[32];
	char arch[32];
	char entry_assembly[256];     /* ProcessInfo2+ */
	char runtime_version[64];     /* ProcessInfo2+, e.g. "10.0.12" */
	char rid[64];                 /* ProcessInfo3 */
};

/* Decodes a ProcessInfo reply payload; version is 1, 2 or 3 (the command
 * that was sent). 0, or -1 when the payload is short or malformed. */
int gt_diag_parse_process_info(const uint8_t *payload, size_t len, int version,
			       struct gt_diag_process_info *out);

/* The major version of a runtime version string ("10.0.12" -> 10), 0 if none. */
int gt_diag_runtime_major(const char *version);

/* EventPipe levels (.NET's EventLevel): the most detailed a provider sends. */
enum gt_ep_level {
	GT_EP_LEVEL_INFORMATIONAL = 4,
	GT_EP_LEVEL_VERBOSE = 5,
};

/* CollectTracing comes in versions 1 (0x0202) to 5 (0x0206). */
#define GT_DIAG_COLLECT_VERSION_MAX 5

/* One EventPipe provider to enable. */
struct gt_diag_provider {
	const char *name;
	uint64_t keywords;
	uint32_t level;
	const char *arguments;  /* "key=value;key=value" or NULL */
	/* Events of this provider left out although its keywords and level
	 * enable them (CollectTracing 5's event filter, .NET 10; older
	 * commands have none, and the runtime then sends them). */
	const uint32_t *skip_ids;
	uint32_t n_skip;
};

/* Builds CollectTracing (command 1..5, i.e. 0x0202..0x0206) for a streaming
 * nettrace session without rundown and, where the command allows, without
 * stacks. -1 when it does not fit a message. */
int gt_diag_build_collect(struct gt_diag_msg *m, int command_version, uint32_t buffer_mb,
			  const struct gt_diag_provider *providers, size_t n_providers);

/* What a session asks beyond its providers. Commands 1 and 2 cannot turn
 * stacks off; commands 2 and 3 know rundown only as on (the runtime's
 * default keywords) or off. */
struct gt_diag_session_opts {
	uint64_t rundown_keywords;  /* 0: no rundown at the session's end */
	bool stacks;                /* walk a stack for every event */
};

/* The default rundown keywords (dotnet-trace's): loader, JIT and R2R
 * methods, with their end enumeration. */
#define GT_DIAG_RUNDOWN_DEFAULT 0x80020139ull

int gt_diag_build_collect_opts(struct gt_diag_msg *m, int command_version, uint32_t buffer_mb,
			       const struct gt_diag_session_opts *opts,
			       const struct gt_diag_provider *providers, size_t n_providers);

#endif
