#include "collectors/dotnet/ipc/diag_ipc_wire.h"

#include <stdlib.h>
#include <string.h>

static const uint8_t magic[14] = "DOTNET_IPC_V1";

static void put_bytes(struct gt_diag_msg *m, const void *p, size_t n)
{
	if (m->overflow || n > sizeof(m->data) - m->len) {
		m->overflow = true;
		return;
	}
	memcpy(m->data + m->len, p, n);
	m->len += n;
}

void gt_diag_msg_begin(struct gt_diag_msg *m, uint8_t command_set, uint8_t command_id)
{
	m->len = 0;
	m->overflow = false;
	put_bytes(m, magic, sizeof(magic));
	uint8_t rest[6] = { 0, 0, command_set, command_id, 0, 0 };
	put_bytes(m, rest, sizeof(rest));
}

void gt_diag_put_u8(struct gt_diag_msg *m, uint8_t v)
{
	put_bytes(m, &v, 1);
}

void gt_diag_put_u32(struct gt_diag_msg *m, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	put_bytes(m, b, 4);
}

void gt_diag_put_u64(struct gt_diag_msg *m, uint64_t v)
{
	gt_diag_put_u32(m, (uint32_t)v);
	gt_diag_put_u32(m, (uint32_t)(v >> 32));
}

void gt_diag_put_string(struct gt_diag_msg *m, const char *ascii)
{
	size_t n = ascii ? strlen(ascii) : 0;
	if (n == 0) {
		gt_diag_put_u32(m, 0);
		return;
	}
	if (n >= GT_DIAG_MAX_MESSAGE) {
		m->overflow = true;
		return;
	}
	gt_diag_put_u32(m, (uint32_t)(n + 1));
	for (size_t i = 0; i <= n; i++) {
		uint8_t u[2] = { (uint8_t)ascii[i], 0 };
		put_bytes(m, u, 2);
	}
}

int gt_diag_msg_finish(struct gt_diag_msg *m)
{
	if (m->overflow || m->len < GT_DIAG_HEADER_SIZE || m->len > GT_DIAG_MAX_MESSAGE)
		return -1;
	m->data[14] = (uint8_t)m->len;
	m->data[15] = (uint8_t)(m->len >> 8);
	return 0;
}

int gt_diag_parse_header(const uint8_t *b, size_t n, struct gt_diag_header *h)
{
	if (n < GT_DIAG_HEADER_SIZE || memcmp(b, magic, sizeof(magic)) != 0)
		return -1;
	h->size = (uint16_t)(b[14] | (b[15] << 8));
	h->command_set = b[16];
	h->command_id = b[17];
	if (h->size < GT_DIAG_HEADER_SIZE)
		return -1;
	return 0;
}

void gt_diag_get_string(struct gt_cursor *r, char *out, size_t out_size)
{
	gt_cursor_utf16(r, gt_cursor_u32(r), out, out_size);
}

int gt_diag_parse_process_info(const uint8_t *payload, size_t len, int version,
			       struct gt_diag_process_info *out)
{
	struct gt_cursor r = gt_cursor_at(payload, len);
	memset(out, 0, sizeof(*out));
	if (version == 3) {
		uint32_t v = gt_cursor_u32(&r);
		(void)v; /* later versions only append fields after the v2 ones */
	}
	out->pid = gt_cursor_u64(&r);
	gt_cursor_take(&r, 16); /* runtime cookie */
	gt_diag_get_string(&r, out->command_line, sizeof(out->command_line));
	gt_diag_get_string(&r, out->os, sizeof(out->os));
	gt_diag_get_string(&r, out->arch, sizeof(out->arch));
	if (version >= 2) {
		gt_diag_get_string(&r, out->entry_assembly, sizeof(out->entry_assembly));
		gt_diag_get_string(&r, out->runtime_version, sizeof(out->runtime_version));
	}
	if (version >= 3 && r.off < r.len)
		gt_diag_get_string(&r, out->rid, sizeof(out->rid));
	return r.bad ? -1 : 0;
}

int gt_diag_runtime_major(const char *version)
{
	char *end;
	long v = strtol(version, &end, 10);
	if (end == version || v <= 0 || v > 1000)
		return 0;
	return (int)v;
}

int gt_diag_build_collect(struct gt_diag_msg *m, int command_version, uint32_t buffer_mb,
			  const struct gt_diag_provider *providers, size_t n_providers)
{
	static const struct gt_diag_session_opts none = { 0, false };
	return gt_diag_build_collect_opts(m, command_version, buffer_mb, &none, providers, n_providers);
}

int gt_diag_build_collect_opts(struct gt_diag_msg *m, int command_version, uint32_t buffer_mb,
			       const struct gt_diag_session_opts *opts,
			       const struct gt_diag_provider *providers, size_t n_providers)
{
	if (command_version < 1 || command_version > GT_DIAG_COLLECT_VERSION_MAX)
		return -1;
	gt_diag_msg_begin(m, GT_DIAG_SET_EVENTPIPE, (uint8_t)(GT_DIAG_EP_COLLECT + command_version - 1));
	if (command_version == GT_DIAG_COLLECT_VERSION_MAX)
		gt_diag_put_u32(m, 0); /* session type: IPC stream */
	gt_diag_put_u32(m, buffer_mb);
	gt_diag_put_u32(m, 1); /* format: NetTrace */
	switch (command_version) {
	case 2:
		gt_diag_put_u8(m, opts->rundown_keywords != 0);
		break;
	case 3:
		gt_diag_put_u8(m, opts->rundown_keywords != 0);
		/* stacks only when asked: walking them costs the target */
		gt_diag_put_u8(m, opts->stacks);
		break;
	case 4:
	case 5:
		gt_diag_put_u64(m, opts->rundown_keywords);
		gt_diag_put_u8(m, opts->stacks);
		break;
	default:
		break;
	}
	gt_diag_put_u32(m, (uint32_t)n_providers);
	for (size_t i = 0; i < n_providers; i++) {
		gt_diag_put_u64(m, providers[i].keywords);
		gt_diag_put_u32(m, providers[i].level);
		gt_diag_put_string(m, providers[i].name);
		gt_diag_put_string(m, providers[i].arguments);
		if (command_version == GT_DIAG_COLLECT_VERSION_MAX) {
			/* enable 0: every event the keywords allow except those listed */
			gt_diag_put_u8(m, 0);
			gt_diag_put_u32(m, providers[i].n_skip);
			for (uint32_t k = 0; k < providers[i].n_skip; k++)
				gt_diag_put_u32(m, providers[i].skip_ids[k]);
		}
	}
	return gt_diag_msg_finish(m);
}
