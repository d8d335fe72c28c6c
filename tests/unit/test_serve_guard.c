/* gctop --serve's connection slots (frontends/serve_guard.c): a newcomer always
 * gets in, and the connection given up for it is the oldest of its own
 * address at its share, else of all, never one whose whole request is in. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "tests/unit/check.h"
#include "frontends/serve_guard.h"

#define S 1000000000ull

static struct gt_guard_peer peer(const char *ip)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(40000) };
	inet_pton(AF_INET, ip, &sa.sin_addr);
	struct gt_guard_peer p;
	gt_guard_peer_of((struct sockaddr *)&sa, sizeof(sa), &p);
	return p;
}

/* Admits a client from ip at time t on descriptor fd: the descriptor
 * dropped for it (-1: none), or -2 when refused. */
static int connect_from(struct gt_guard *g, const char *ip, int fd, uint64_t t)
{
	struct gt_guard_peer p = peer(ip);
	int drop;
	if (!gt_guard_admit(g, &p, t, NULL, &drop))
		return -2;
	CHECK(gt_guard_add(g, &p, fd, t) != NULL);
	return drop;
}

static struct gt_guard_conn *entry(struct gt_guard *g, int fd)
{
	for (unsigned i = 0; i < GT_GUARD_SLOTS; i++)
		if (g->conn[i].used && g->conn[i].fd == fd)
			return &g->conn[i];
	return NULL;
}

/* The server closes what was dropped, as on its next pass. */
static void server_closes(struct gt_guard *g, int fd)
{
	struct gt_guard_conn *c = entry(g, fd);
	CHECK(c && c->dropped);
	if (c)
		gt_guard_remove(c);
}

static void test_room_drops_nothing(void)
{
	static struct gt_guard g;
	memset(&g, 0, sizeof(g));
	for (int i = 0; i < 8; i++)
		CHECK(connect_from(&g, "127.0.0.10", 100 + i, (uint64_t)i * S) == -1);
}

static void test_address_at_its_share_gives_up_its_oldest(void)
{
	static struct gt_guard g;
	memset(&g, 0, sizeof(g));
	for (int i = 0; i < 8; i++)
		connect_from(&g, "127.0.0.10", 100 + i, (uint64_t)(i + 1) * S);
	/* 101 asked for something since: 100 is now the oldest */
	gt_guard_request(entry(&g, 100), 20 * S);
	CHECK(connect_from(&g, "127.0.0.10", 200, 21 * S) == 101);
	server_closes(&g, 101);
	CHECK(connect_from(&g, "127.0.0.10", 201, 22 * S) == 102);
}

/* Hostile addresses holding every slot, 8 each (slow clients): a scraper
 * from another gets in, and so does one from a hostile address, each time
 * at a hostile connection's cost, never at the scraper's, which sent its
 * request. */
#define HOSTILE (GT_GUARD_MAX_CONNECTIONS / GT_GUARD_MAX_PER_ADDRESS)
static void test_full_server_takes_the_oldest_silent(void)
{
	static struct gt_guard g;
	memset(&g, 0, sizeof(g));
	char hostile[HOSTILE][32];
	for (unsigned h = 0; h < HOSTILE; h++)
		snprintf(hostile[h], sizeof(hostile[h]), "127.0.0.%u", 10 + h);
	int fd = 100;
	for (unsigned round = 0; round < GT_GUARD_MAX_PER_ADDRESS; round++)
		for (unsigned h = 0; h < HOSTILE; h++, fd++)
			CHECK(connect_from(&g, hostile[h], fd, (uint64_t)fd * S) == -1);
	/* the scraper's connection: the oldest of all goes */
	CHECK(connect_from(&g, "127.0.0.1", 500, 1000 * S) == 100);
	server_closes(&g, 100);
	gt_guard_request(entry(&g, 500), 1000 * S);
	/* hostile clients keep coming, faster than a scrape takes: each takes
	 * a hostile slot, the scraper's stays */
	for (int i = 0; i < 40; i++) {
		int dropped = connect_from(&g, hostile[i % HOSTILE], 600 + i, 1000 * S + (1 + (uint64_t)i) * S / 1000);
		CHECK(dropped >= 0 && dropped != 500);
		if (dropped >= 0)
			server_closes(&g, dropped);
	}
	CHECK(entry(&g, 500) && !entry(&g, 500)->dropped);
}

static void test_refused_only_when_every_slot_is_closing(void)
{
	static struct gt_guard g;
	memset(&g, 0, sizeof(g));
	int fd = 100;
	/* the server has not closed any of the dropped ones yet */
	for (unsigned i = 0; i < GT_GUARD_SLOTS; i++, fd++)
		CHECK(connect_from(&g, "127.0.0.10", fd, (uint64_t)fd * S) >= -1);
	CHECK(connect_from(&g, "127.0.0.1", fd, (uint64_t)fd * S) == -2);
	server_closes(&g, 100);
	CHECK(connect_from(&g, "127.0.0.1", fd, (uint64_t)fd * S) >= -1);
}

static void test_peer_is_the_address_not_the_port(void)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_port = htons(1) }, b = a;
	b.sin6_port = htons(2);
	inet_pton(AF_INET6, "::1", &a.sin6_addr);
	inet_pton(AF_INET6, "::1", &b.sin6_addr);
	struct gt_guard_peer pa, pb;
	CHECK(gt_guard_peer_of((struct sockaddr *)&a, sizeof(a), &pa));
	CHECK(gt_guard_peer_of((struct sockaddr *)&b, sizeof(b), &pb));
	CHECK(memcmp(&pa, &pb, sizeof(pa)) == 0);
	struct sockaddr_un_like { sa_family_t family; char path[20]; } u = { AF_UNIX, "x" };
	CHECK(!gt_guard_peer_of((struct sockaddr *)&u, sizeof(u), &pa));
	CHECK(!gt_guard_peer_of((struct sockaddr *)&a, sizeof(struct sockaddr_in), &pa));
}

/* A connect storm (connections that never send a byte) fills the server;
 * a scraper whose whole request waits unread, and one being answered, are
 * passed over for the storm's oldest; a slow reader only for the grace. */
static int waiting_fd = -1;
static bool waits(int fd)
{
	return fd == waiting_fd;
}

static int storm_connect(struct gt_guard *g, const char *ip, int fd, uint64_t t)
{
	struct gt_guard_peer p = peer(ip);
	int drop;
	if (!gt_guard_admit(g, &p, t, waits, &drop))
		return -2;
	CHECK(gt_guard_add(g, &p, fd, t) != NULL);
	return drop;
}

static void test_whole_request_never_dropped_for_silence(void)
{
	static struct gt_guard g;
	memset(&g, 0, sizeof(g));
	/* the scraper first: the oldest connection of all */
	CHECK(storm_connect(&g, "127.0.0.250", 500, 0) == -1);
	waiting_fd = 500;
	char ip[32];
	int fd = 600;
	for (int i = 0; i < 200; i++, fd++) {
		snprintf(ip, sizeof(ip), "127.0.0.%d", 2 + i % 200);
		int dropped = storm_connect(&g, ip, fd, (2 + (uint64_t)i) * S / 1000);
		CHECK(dropped != 500);
		if (dropped >= 0)
			server_closes(&g, dropped);
	}
	CHECK(entry(&g, 500) && !entry(&g, 500)->dropped);
	/* read and being answered: still kept */
	waiting_fd = -1;
	gt_guard_request(entry(&g, 500), 1 * S / 1000);
	CHECK(storm_connect(&g, "127.0.0.9", fd++, 3 * S) != 500);
	/* answered: a keep-alive connection like any other, oldest goes */
	gt_guard_answered(entry(&g, 500), 1 * S / 1000);
	CHECK(storm_connect(&g, "127.0.0.9", fd++, 3 * S) == 500);
}

/* Two scrapers of one address at its share: neither drops the other while
 * its request is answered; a silent connection of theirs goes, and with
 * none, the newcomer is refused. Past the grace, a request being answered
 * protects no more. */
static void test_one_address_scrapers_keep_each_other(void)
{
	static struct gt_guard g;
	memset(&g, 0, sizeof(g));
	waiting_fd = -1;
	for (int i = 0; i < 8; i++)
		CHECK(storm_connect(&g, "127.0.0.251", 100 + i, (uint64_t)(i + 1) * S) == -1);
	for (int i = 0; i < 7; i++)
		gt_guard_request(entry(&g, 100 + i), 10 * S);
	CHECK(storm_connect(&g, "127.0.0.251", 200, 11 * S) == 107);
	server_closes(&g, 107);
	gt_guard_request(entry(&g, 200), 11 * S);
	CHECK(storm_connect(&g, "127.0.0.251", 201, 12 * S) == -2);
	CHECK(storm_connect(&g, "127.0.0.251", 201, 10 * S + GT_GUARD_ANSWER_GRACE_NS) == 100);
}

int main(void)
{
	RUN_TEST(test_room_drops_nothing);
	RUN_TEST(test_address_at_its_share_gives_up_its_oldest);
	RUN_TEST(test_full_server_takes_the_oldest_silent);
	RUN_TEST(test_refused_only_when_every_slot_is_closing);
	RUN_TEST(test_peer_is_the_address_not_the_port);
	RUN_TEST(test_whole_request_never_dropped_for_silence);
	RUN_TEST(test_one_address_scrapers_keep_each_other);
	return check_summary();
}
