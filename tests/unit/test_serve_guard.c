/* gctop --serve's connection slots (frontends/serve_guard.c): a newcomer always
 * gets in, and the connection given up for it is the oldest of its own
 * address at its share, else of the address holding the most. */
#include <arpa/inet.h>
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
	if (!gt_guard_admit(g, &p, &drop))
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

/* Four addresses holding every slot (the 32 slow clients): a
 * scraper from a fifth gets in, and so does one from a hostile address,
 * each time at a hostile connection's cost, never at the scraper's. */
static void test_full_server_takes_from_the_busiest(void)
{
	static struct gt_guard g;
	memset(&g, 0, sizeof(g));
	const char *hostile[] = { "127.0.0.10", "127.0.0.11", "127.0.0.12", "127.0.0.13" };
	int fd = 100;
	for (int round = 0; round < 8; round++)
		for (int h = 0; h < 4; h++, fd++)
			CHECK(connect_from(&g, hostile[h], fd, (uint64_t)fd * S) == -1);
	/* the scraper's connection: the busiest address's oldest goes */
	CHECK(connect_from(&g, "127.0.0.1", 500, 1000 * S) == 100);
	server_closes(&g, 100);
	/* hostile clients keep coming: each takes a hostile slot, the
	 * scraper's (newer than theirs) stays */
	for (int i = 0; i < 40; i++) {
		int dropped = connect_from(&g, hostile[i % 4], 600 + i, (1001 + (uint64_t)i) * S);
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

int main(void)
{
	RUN_TEST(test_room_drops_nothing);
	RUN_TEST(test_address_at_its_share_gives_up_its_oldest);
	RUN_TEST(test_full_server_takes_from_the_busiest);
	RUN_TEST(test_refused_only_when_every_slot_is_closing);
	RUN_TEST(test_peer_is_the_address_not_the_port);
	return check_summary();
}
