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
 * first container part wins, and the pod part only directly under the
 * first kubepods group: parts below a container's group may be the
 * process's own making (path_ids), and a process in a nested group
 * (systemd's init.scope inside a container) still belongs to the
 * container above.
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

static bool equals(struct span s, const char *word)
{
	return s.n == strlen(word) && memcmp(s.p, word, s.n) == 0;
}

/* Whether s is parent + "-" + word (systemd names a unit under a slice
 * by the slice's name and its own). */
static bool is_child(struct span s, struct span parent, const char *word)
{
	size_t n = strlen(word);
	return s.n == parent.n + 1 + n && memcmp(s.p, parent.p, parent.n) == 0 && s.p[parent.n] == '-' &&
	       memcmp(s.p + parent.n + 1, word, n) == 0;
}

/* Writes the UID (with '-', as the pod's UID is written) if uid is one
 * with sep between its groups. */
static bool take_uid(struct span uid, char sep, char *out)
{
	if (!is_uuid(uid, sep))
		return false;
	for (size_t i = 0; i < uid.n; i++)
		out[i] = uid.p[i] == '_' ? '-' : uid.p[i];
	out[uid.n] = '\0';
	return true;
}

/* The pod's group under its parent (the kubepods group or its QoS group):
 * "podUUID" (cgroupfs), or the parent's name + "-podUUID_WITH_UNDERSCORES"
 * (systemd, whose unit names cannot hold the UUID's '-'). Without a parent
 * (a path that starts inside the hierarchy, as one outside gctop's cgroup
 * namespace does: "/../kubepods-burstable-podUID.slice/..."), any
 * "...kubepods...-podUID" slice. */
static bool take_pod(struct span name, const struct span *parent, char *out)
{
	if (starts_with(name, "pod") && take_uid((struct span){ name.p + 3, name.n - 3 }, '-', out))
		return true;
	struct span uid = after_last_dash(name);
	size_t prefix = (size_t)(uid.p - name.p); /* with its '-' */
	bool placed = parent ? prefix == parent->n + 1 && memcmp(name.p, parent->p, parent->n) == 0
			     : contains((struct span){ name.p, prefix }, "kubepods");
	return placed && starts_with(uid, "pod") && take_uid((struct span){ uid.p + 3, uid.n - 3 }, '_', out);
}

static bool is_qos(struct span name, struct span parent)
{
	return equals(name, "burstable") || equals(name, "besteffort") || is_child(name, parent, "burstable") ||
	       is_child(name, parent, "besteffort");
}

/* Where path_ids is in the kubepods hierarchy: not yet in it, at the
 * kubepods group or at its QoS group (parent names it), or past the pod's
 * level, after which no part counts. */
enum kube_at { KUBE_BEFORE, KUBE_ROOT, KUBE_QOS, KUBE_PAST };

/* Steps through one part of the path: the pod UID only from the part
 * directly under the first kubepods group or its QoS group. */
static enum kube_at kube_step(enum kube_at at, struct span name, struct span *parent, char *pod_uid)
{
	switch (at) {
	case KUBE_BEFORE:
		if (!contains(name, "kubepods"))
			return KUBE_BEFORE;
		if (take_pod(name, NULL, pod_uid))
			return KUBE_PAST;
		*parent = name;
		return KUBE_ROOT;
	case KUBE_ROOT:
	case KUBE_QOS:
		if (take_pod(name, parent, pod_uid))
			return KUBE_PAST;
		if (at == KUBE_ROOT && is_qos(name, *parent)) {
			*parent = name;
			return KUBE_QOS;
		}
		return KUBE_PAST;
	default:
		return KUBE_PAST;
	}
}

/* The ids one path names. Below a container's or pod's own group, a
 * process with a delegated, writable group (systemd in a container, a
 * rootless Podman, Docker in Docker) names the parts itself; so the pod is
 * the one directly under the first kubepods group, and the container the
 * first (outermost) one, or in a pod the first below the pod's group (kind
 * without a cgroup namespace puts a whole node, a container, above it). */
static void path_ids(struct span path, struct gt_container_ids *ids)
{
	enum kube_at at = KUBE_BEFORE;
	struct span parent = { path.p, 0 };
	memset(ids, 0, sizeof(*ids));
	while (path.n) {
		struct span part = { path.p, part_len(path) };
		enum kube_at was = at;
		at = kube_step(at, cut_suffix(part), &parent, ids->pod_uid);
		if (at == KUBE_PAST && was != KUBE_PAST && ids->pod_uid[0])
			ids->container_id[0] = '\0';
		if (!ids->container_id[0])
			take_container(part, ids->container_id);
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

void gt_container_ids_from_path(const char *path, size_t len, struct gt_container_ids *out)
{
	path_ids((struct span){ path, len }, out);
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
