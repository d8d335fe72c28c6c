/* gctop --serve's connection slots: see serve_guard.h for the policy. */
#include "frontends/serve_guard.h"

#include <netinet/in.h>
#include <stddef.h>
#include <string.h>

bool gt_guard_peer_of(const struct sockaddr *sa, socklen_t len, struct gt_guard_peer *p)
{
	memset(p, 0, sizeof(*p));
	if (!sa)
		return false;
	if (sa->sa_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		p->family = AF_INET;
		memcpy(p->addr, &((const struct sockaddr_in *)sa)->sin_addr, sizeof(struct in_addr));
		return true;
	}
	if (sa->sa_family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
		p->family = AF_INET6;
		memcpy(p->addr, &((const struct sockaddr_in6 *)sa)->sin6_addr, sizeof(struct in6_addr));
		return true;
	}
	return false;
}

static bool peer_same(const struct gt_guard_peer *a, const struct gt_guard_peer *b)
{
	return a->family == b->family && memcmp(a->addr, b->addr, sizeof(a->addr)) == 0;
}

static bool conn_live(const struct gt_guard_conn *c)
{
	return c->used && !c->dropped;
}

/* The live connections from p. */
static unsigned peer_count(const struct gt_guard *g, const struct gt_guard_peer *p)
{
	unsigned n = 0;
	for (size_t i = 0; i < GT_GUARD_SLOTS; i++)
		n += conn_live(&g->conn[i]) && peer_same(&g->conn[i].peer, p);
	return n;
}

/* Whether c may not be dropped now: its request is being answered (for
 * the grace at most), or a whole one waits in its socket, which then
 * counts as being answered from now on. */
static bool protected_now(struct gt_guard_conn *c, uint64_t now_ns, gt_guard_waiting_fn waiting)
{
	if (c->answering)
		return now_ns - c->answer_ns < GT_GUARD_ANSWER_GRACE_NS;
	if (waiting && waiting(c->fd)) {
		c->answering = true;
		c->answer_ns = now_ns;
		return true;
	}
	return false;
}

/* The live connection of p (of anyone when p is NULL) whose connect or
 * request is the oldest of those not protected, or NULL. Oldest first, so
 * only the candidates older than the one chosen are looked at. */
static struct gt_guard_conn *victim_of(struct gt_guard *g, const struct gt_guard_peer *p, uint64_t now_ns,
				       gt_guard_waiting_fn waiting)
{
	bool passed[GT_GUARD_SLOTS] = { false };
	for (;;) {
		struct gt_guard_conn *old = NULL;
		size_t at = 0;
		for (size_t i = 0; i < GT_GUARD_SLOTS; i++) {
			struct gt_guard_conn *c = &g->conn[i];
			if (!passed[i] && conn_live(c) && (!p || peer_same(&c->peer, p)) &&
			    (!old || c->since_ns < old->since_ns)) {
				old = c;
				at = i;
			}
		}
		if (!old || !protected_now(old, now_ns, waiting))
			return old;
		passed[at] = true;
	}
}

static unsigned live_count(const struct gt_guard *g)
{
	unsigned n = 0;
	for (size_t i = 0; i < GT_GUARD_SLOTS; i++)
		n += conn_live(&g->conn[i]);
	return n;
}

static bool has_free_slot(const struct gt_guard *g)
{
	for (size_t i = 0; i < GT_GUARD_SLOTS; i++)
		if (!g->conn[i].used)
			return true;
	return false;
}

bool gt_guard_admit(struct gt_guard *g, const struct gt_guard_peer *p, uint64_t now_ns, gt_guard_waiting_fn waiting,
		    int *drop_fd)
{
	*drop_fd = -1;
	if (!has_free_slot(g))
		return false;
	struct gt_guard_conn *victim;
	if (peer_count(g, p) >= GT_GUARD_MAX_PER_ADDRESS) {
		victim = victim_of(g, p, now_ns, waiting);
	} else if (live_count(g) >= GT_GUARD_MAX_CONNECTIONS) {
		victim = victim_of(g, NULL, now_ns, waiting);
	} else {
		return true;
	}
	if (!victim)
		return false;
	victim->dropped = true;
	*drop_fd = victim->fd;
	return true;
}

struct gt_guard_conn *gt_guard_add(struct gt_guard *g, const struct gt_guard_peer *p, int fd, uint64_t now_ns)
{
	for (size_t i = 0; i < GT_GUARD_SLOTS; i++) {
		struct gt_guard_conn *c = &g->conn[i];
		if (!c->used) {
			*c = (struct gt_guard_conn){ .used = true, .fd = fd, .peer = *p, .since_ns = now_ns };
			return c;
		}
	}
	return NULL;
}

void gt_guard_request(struct gt_guard_conn *c, uint64_t now_ns)
{
	c->since_ns = now_ns;
	if (!c->answering)
		c->answer_ns = now_ns;
	c->answering = true;
}

void gt_guard_answered(struct gt_guard_conn *c, uint64_t now_ns)
{
	c->since_ns = now_ns;
	c->answering = false;
}

void gt_guard_remove(struct gt_guard_conn *c)
{
	*c = (struct gt_guard_conn){ .fd = -1 };
}
