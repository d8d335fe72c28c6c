/* Container and pod ids from the cgroup paths of /proc/PID/cgroup.
 *
 * The shapes runtimes give a container's group, cgroup v1 or v2 alike:
 *   /docker/ID                                   Docker, cgroupfs driver
 *   /system.slice/docker-ID.scope                Docker, systemd driver
 *   /machine.slice/libpod-ID.scope               Podman
 *   /kubepods/QOS/podUID/ID                      Kubernetes, cgroupfs driver
 *   /kubepods.slice/kubepods-QOS.slice/
 *     kubepods-QOS-podUID_WITH_UNDERSCORES.slice/
 *     cri-containerd-ID.scope (or crio-ID.scope, docker-ID.scope)
 *                                                Kubernetes, systemd driver
 *   .../kubepods-QOS-podUID.slice:cri-containerd:ID
 *                                                containerd's systemd paths
 *                                                seen through cgroupfs (kind)
 * So a path is read part by part ('/' and ':' separate them); in each part,
 * what follows the last '-' before any '.' suffix may be the container's
 * id, and "pod" + UUID (or "-pod" + UUID with '_' for '-') the pod's. The
 * last part that matches wins: a process in a nested group (systemd's
 * init.scope inside a container) still belongs to the container above.
 * Regular expressions (as OpenTelemetry's detector uses) would do, but
 * POSIX regex needs NUL-terminated copies of hostile text; this reads the
 * caller's bytes in place and never past len. */
#include "collectors/host/container_ids.h"

#include <stdbool.h>
#include <string.h>

/* A view into the caller's text. */
struct span {
	const char *p;
	size_t n;
};

/* Where a part of the path ends: at the next '/', ':' or the end. */
static size_t part_len(struct span s)
{
	size_t i = 0;
	while (i < s.n && s.p[i] != '/' && s.p[i] != ':')
		i++;
	return i;
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static bool all_hex(struct span s)
{
	for (size_t i = 0; i < s.n; i++)
		if (!is_hex(s.p[i]))
			return false;
	return true;
}

/* 8-4-4-4-12 lowercase hex, with sep between the groups. */
static bool is_uuid(struct span s, char sep)
{
	if (s.n != GT_POD_UID_LEN)
		return false;
	for (size_t i = 0; i < s.n; i++) {
		bool at_sep = i == 8 || i == 13 || i == 18 || i == 23;
		if (at_sep ? s.p[i] != sep : !is_hex(s.p[i]))
			return false;
	}
	return true;
}

static bool starts_with(struct span s, const char *word)
{
	size_t n = strlen(word);
	return s.n >= n && memcmp(s.p, word, n) == 0;
}

static bool contains(struct span s, const char *word)
{
	size_t n = strlen(word);
	for (size_t i = 0; i + n <= s.n; i++)
		if (memcmp(s.p + i, word, n) == 0)
			return true;
	return false;
}

/* The part before its first '.' (".scope", ".slice"). */
static struct span cut_suffix(struct span s)
{
	const char *dot = memchr(s.p, '.', s.n);
	if (dot)
		s.n = (size_t)(dot - s.p);
	return s;
}

/* What follows the last '-', or the whole part. */
static struct span after_last_dash(struct span s)
{
	size_t i = s.n;
	while (i && s.p[i - 1] != '-')
		i--;
	return (struct span){ s.p + i, s.n - i };
}

static void take_container(struct span part, char *out)
{
	struct span id = after_last_dash(cut_suffix(part));
	if (id.n == GT_CONTAINER_ID_LEN && all_hex(id)) {
		memcpy(out, id.p, id.n);
		out[id.n] = '\0';
	}
}

/* "podUUID" (cgroupfs) or "...-podUUID_WITH_UNDERSCORES" (systemd, whose
 * unit names cannot hold the UUID's '-'); written with '-' either way, as
 * the pod's UID is. */
static void take_pod(struct span part, char *out)
{
	struct span s = cut_suffix(part), uid;
	char sep;
	if (starts_with(s, "pod")) {
		uid = (struct span){ s.p + 3, s.n - 3 };
		sep = '-';
	} else {
		uid = after_last_dash(s);
		if (!starts_with(uid, "pod"))
			return;
		uid.p += 3;
		uid.n -= 3;
		sep = '_';
	}
	if (!is_uuid(uid, sep))
		return;
	for (size_t i = 0; i < uid.n; i++)
		out[i] = uid.p[i] == '_' ? '-' : uid.p[i];
	out[uid.n] = '\0';
}

/* The ids one path names; a pod UID counts only below a kubepods group. */
static void path_ids(struct span path, struct gt_container_ids *ids)
{
	bool kubepods = false;
	memset(ids, 0, sizeof(*ids));
	while (path.n) {
		struct span part = { path.p, part_len(path) };
		kubepods = kubepods || contains(part, "kubepods");
		take_container(part, ids->container_id);
		if (kubepods)
			take_pod(part, ids->pod_uid);
		size_t step = part.n < path.n ? part.n + 1 : part.n;
		path.p += step;
		path.n -= step;
	}
}

/* The PATH of an "ID:CONTROLLERS:PATH" line; false for another shape. */
static bool line_path(struct span line, struct span *path)
{
	for (int colons = 0; colons < 2; colons++) {
		const char *c = memchr(line.p, ':', line.n);
		if (!c)
			return false;
		line.n -= (size_t)(c + 1 - line.p);
		line.p = c + 1;
	}
	*path = line;
	return true;
}

void gt_container_ids_parse(const char *text, size_t len, struct gt_container_ids *out)
{
	struct gt_container_ids pod_only = { 0 };
	memset(out, 0, sizeof(*out));
	while (len) {
		const char *nl = memchr(text, '\n', len);
		struct span line = { text, nl ? (size_t)(nl - text) : len }, path;
		text += line.n + (nl ? 1 : 0);
		len -= line.n + (nl ? 1 : 0);
		struct gt_container_ids ids;
		if (!line_path(line, &path))
			continue;
		path_ids(path, &ids);
		if (ids.container_id[0]) {
			*out = ids;
			return;
		}
		if (ids.pod_uid[0] && !pod_only.pod_uid[0])
			pod_only = ids;
	}
	*out = pod_only;
}
