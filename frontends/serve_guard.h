/* gctop --serve: who gets a connection when clients hold every slot.
 *
 * libmicrohttpd's own limits (total, per address) refuse the newcomer once
 * they are reached, so clients that open connections and keep them alive
 * (a header line every few seconds, or nothing at all until the idle
 * timeout) from four loopback addresses, which any local user can bind,
 * locked Prometheus out for as long as they liked. Here the limits make
 * room instead: a new client gets in at the cost of the connection that
 * has held its slot longest without a request being answered (by its
 * connect, or its latest request's start or end), taken from the
 * newcomer's own address when that one is at its share, else from anyone.
 * What hostile clients hold, they lose to the next newcomer.
 *
 * But a client that sent its whole request promptly is never dropped for
 * one that has not: a connection whose request is being answered, or whose
 * whole request is already waiting in its socket (the server has not read
 * it yet), is passed over, for GT_GUARD_ANSWER_GRACE_NS at the most (a
 * client that reads its answer slowly holds it no longer). Under a connect
 * storm (some 10k connections a second that never send a byte) a scrape's
 * connection became the oldest a few milliseconds after its request and
 * was dropped while it was answered, and two scrapers from one address,
 * the busiest address in a storm from many, dropped each other. When every
 * connection the rule would take from is so protected, the newcomer is
 * refused: it has sent nothing yet.
 *
 * Pure bookkeeping, no libmicrohttpd: the server's callbacks
 * (frontends/serve_admit.c) call it from the server's one thread (every
 * callback runs there), so it needs no lock. */
#ifndef GCTOP_FRONTENDS_SERVE_GUARD_H
#define GCTOP_FRONTENDS_SERVE_GUARD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

/* Prometheus keeps one connection per target, and people a few. The
 * room is for a storm: a connection that never sends a byte lives as long
 * as this many newcomers take (32 at 14k connections a second: 2.3 ms,
 * less than a scraper on a busy machine may take from its connect to its
 * request; 128: 9 ms). 32 KiB of request memory each. */
#define GT_GUARD_MAX_CONNECTIONS 128u
#define GT_GUARD_MAX_PER_ADDRESS 8u
/* How long a request being answered protects its connection: a scrape's
 * answer takes milliseconds; one read more slowly than this is a client
 * holding a slot, not a scraper. */
#define GT_GUARD_ANSWER_GRACE_NS (5 * 1000000000ull)
/* Room for the connections dropped but not yet closed by the server (it
 * closes them on its next pass): the server's own hard limit. */
#define GT_GUARD_SLOTS (2u * GT_GUARD_MAX_CONNECTIONS)

/* A client's address, without its port: what "one client" means. */
struct gt_guard_peer {
	sa_family_t family;
	uint8_t addr[16];
};

struct gt_guard_conn {
	bool used;
	bool dropped;          /* shut down for a newcomer; the server closes it */
	int fd;
	struct gt_guard_peer peer;
	uint64_t since_ns;     /* CLOCK_MONOTONIC: its connect, then its latest request's start or end */
	bool answering;        /* a whole request of it is being answered (or waits to be read) */
	uint64_t answer_ns;    /* since when */
};

/* Whether a whole request waits unread on the connection fd (the caller's
 * look at the socket: frontends/serve_admit.c). */
typedef bool (*gt_guard_waiting_fn)(int fd);

struct gt_guard {
	struct gt_guard_conn conn[GT_GUARD_SLOTS];
};

/* The peer of a client address; false for a family gctop does not serve. */
bool gt_guard_peer_of(const struct sockaddr *sa, socklen_t len, struct gt_guard_peer *p);

/* A client from p is connecting at now_ns: makes room for it. Returns
 * false when it must be refused (every slot is taken by connections being
 * closed, or every one the rule would take from is protected; waiting,
 * which may be NULL, says which have a whole request unread); otherwise
 * *drop_fd is the descriptor of the connection given up for it (marked
 * dropped; the caller shuts it down), or -1 when there was room. */
bool gt_guard_admit(struct gt_guard *g, const struct gt_guard_peer *p, uint64_t now_ns, gt_guard_waiting_fn waiting,
		    int *drop_fd);

/* The connection admitted is open on fd: its entry, or NULL when the table
 * is full (the caller drops it). */
struct gt_guard_conn *gt_guard_add(struct gt_guard *g, const struct gt_guard_peer *p, int fd, uint64_t now_ns);

/* A request's headers arrived on c: it is as young as a new connection,
 * and protected while it is answered. */
void gt_guard_request(struct gt_guard_conn *c, uint64_t now_ns);

/* The answer to c's request is sent (or abandoned): c waits for its next
 * request, unprotected. */
void gt_guard_answered(struct gt_guard_conn *c, uint64_t now_ns);

/* The server closed c (before its descriptor is closed and reused). */
void gt_guard_remove(struct gt_guard_conn *c);

#endif
