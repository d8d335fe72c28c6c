/* Following a repository (collectors/hotspot/jfr/jfr_follow.c) and tabling
 * its allocation samples (jfr_alloc.c), on a real JDK 17 chunk
 * (tests/unit/data/jdk17-alloc.jfr: 70 samples, 116450408 bytes, as jfr
 * print reads them) copied into a directory of ours under chunk names:
 * the newest chunk first, then each later one in the JVM's order; a chunk
 * that holds its header alone waited for, but not forever once a later
 * one exists; a link, another user's file or a truncated chunk refused
 * with a sentence and passed over. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/hotspot/jfr/jfr_alloc.h"
#include "collectors/hotspot/jfr/jfr_follow.h"
#include "tests/unit/check.h"

#define FIXTURE "tests/unit/data/jdk17-alloc.jfr"
#define FIXTURE_SAMPLES 70u
#define FIXTURE_BYTES 116450408ull
#define FIXTURE_SITE_A 67380840ull  /* AllocSites.siteA, and byte[] */
#define FIXTURE_HEADER 68

static char dir[64];
static unsigned char *fixture;
static size_t fixture_len;

static int load_fixture(void)
{
	FILE *f = fopen(FIXTURE, "rb");
	if (!f)
		return -1;
	fixture = malloc(1 << 20);
	fixture_len = fixture ? fread(fixture, 1, 1 << 20, f) : 0;
	fclose(f);
	return fixture_len > FIXTURE_HEADER ? 0 : -1;
}

static void put(const char *name, const void *bytes, size_t len)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	if (f) {
		CHECK(fwrite(bytes, 1, len, f) == len);
		fclose(f);
	}
}

static void add(struct gt_jfr_reader *r, const struct gt_jfr_event *ev, void *arg)
{
	(void)r;
	jfr_alloc_add(arg, ev);
}

static uint64_t site_bytes(const struct jfr_alloc *a, const char *name)
{
	struct gt_alloc_snapshot s;
	memset(&s, 0, sizeof(s));
	jfr_alloc_snapshot(a, &s);
	for (unsigned i = 0; i < s.by_frame.n; i++)
		if (strcmp(s.by_frame.sites[i].name, name) == 0)
			return s.by_frame.sites[i].bytes;
	for (unsigned i = 0; i < s.by_type.n; i++)
		if (strcmp(s.by_type.sites[i].name, name) == 0)
			return s.by_type.sites[i].bytes;
	return 0;
}

static void follows_chunks_in_order(void)
{
	struct jfr_follow f;
	struct jfr_alloc a;
	struct gt_error e;
	CHECK(jfr_alloc_init(&a, NULL) == 0);
	/* an older chunk is passed over: the newest is where gctop's recording began */
	put("2026_12_07_01_28_37.jfr", fixture, fixture_len);
	put("2026_12_07_01_28_38.jfr", fixture, fixture_len);
	CHECK(jfr_follow_open(&f, getpid(), getuid(), dir, &e) == 0);
	CHECK(jfr_follow_poll(&f, add, &a, &e) == 0);
	CHECK_U64(a.samples, FIXTURE_SAMPLES);
	CHECK_U64(a.bytes, FIXTURE_BYTES);
	CHECK_U64(site_bytes(&a, "AllocSites.siteA"), FIXTURE_SITE_A);
	CHECK_U64(site_bytes(&a, "byte[]"), FIXTURE_SITE_A);
	CHECK_STR(f.name, "2026_12_07_01_28_38.jfr");

	/* _10 after _2, both after the stamp alone */
	put("2026_12_07_01_28_38_10.jfr", fixture, fixture_len);
	put("2026_12_07_01_28_38_2.jfr", fixture, fixture_len);
	CHECK(jfr_follow_poll(&f, add, &a, &e) == 0);
	CHECK_U64(a.samples, 3 * FIXTURE_SAMPLES);
	CHECK_STR(f.name, "2026_12_07_01_28_38_10.jfr");

	/* a chunk the JVM just began: its header alone, size 68, no checkpoint
	 * or metadata yet (offsets 0), generation 1 */
	unsigned char head[FIXTURE_HEADER];
	memcpy(head, fixture, sizeof(head));
	memset(head + 8, 0, 24);
	head[15] = FIXTURE_HEADER;
	head[64] = 1;
	put("2026_12_07_01_28_39.jfr", head, sizeof(head));
	CHECK(jfr_follow_poll(&f, add, &a, &e) == 0);
	CHECK_U64(a.samples, 3 * FIXTURE_SAMPLES);
	CHECK_STR(f.name, "2026_12_07_01_28_39.jfr");
	CHECK(f.chunk >= 0);
	/* the JVM flushes it (here: finishes it at once) */
	put("2026_12_07_01_28_39.jfr", fixture, fixture_len);
	CHECK(jfr_follow_poll(&f, add, &a, &e) == 0);
	CHECK_U64(a.samples, 4 * FIXTURE_SAMPLES);

	/* a link among the chunks: refused, then passed over */
	char target[128], link[128];
	snprintf(target, sizeof(target), "%s/2026_12_07_01_28_38.jfr", dir);
	snprintf(link, sizeof(link), "%s/2026_12_07_01_28_40.jfr", dir);
	CHECK(symlink(target, link) == 0);
	put("2026_12_07_01_28_41.jfr", fixture, fixture_len);
	CHECK(jfr_follow_poll(&f, add, &a, &e) == -1);
	CHECK(strstr(e.msg, "without following a link") != NULL);
	CHECK_U64(a.samples, 4 * FIXTURE_SAMPLES);
	CHECK(jfr_follow_poll(&f, add, &a, &e) == 0);
	CHECK_U64(a.samples, 5 * FIXTURE_SAMPLES);

	/* a file of another user: refused (only root can make one here) */
	if (getuid() == 0) {
		put("2026_12_07_01_28_42.jfr", fixture, fixture_len);
		char other[128];
		snprintf(other, sizeof(other), "%s/2026_12_07_01_28_42.jfr", dir);
		CHECK(chown(other, 65534, 65534) == 0);
		CHECK(jfr_follow_poll(&f, add, &a, &e) == -1);
		CHECK(strstr(e.msg, "not a file of its user") != NULL);
		CHECK_U64(a.samples, 5 * FIXTURE_SAMPLES);
	}

	/* a truncated chunk (its header states more than the file holds) */
	put("2026_12_07_01_28_43.jfr", fixture, fixture_len / 2);
	CHECK(jfr_follow_poll(&f, add, &a, &e) == -1);
	CHECK_U64(a.samples, 5 * FIXTURE_SAMPLES);

	/* a chunk that never finishes while a later one exists: left after
	 * JFR_FOLLOW_STALE_POLLS polls in which it did not grow */
	put("2026_12_07_01_28_44.jfr", head, sizeof(head));
	put("2026_12_07_01_28_45.jfr", fixture, fixture_len);
	for (unsigned i = 0; i < JFR_FOLLOW_STALE_POLLS; i++) {
		CHECK(jfr_follow_poll(&f, add, &a, &e) == 0);
		CHECK_U64(a.samples, 5 * FIXTURE_SAMPLES);
	}
	CHECK(jfr_follow_poll(&f, add, &a, &e) == 0);
	CHECK_U64(a.samples, 6 * FIXTURE_SAMPLES);
	CHECK_STR(f.name, "2026_12_07_01_28_45.jfr");
	jfr_follow_close(&f);
	jfr_alloc_free(&a);
}

static void the_stacks_behind_the_sites(void)
{
	struct jfr_follow f;
	struct jfr_alloc a;
	struct gt_error e;
	char sub[96];
	snprintf(sub, sizeof(sub), "%s/stacks", dir);
	CHECK(mkdir(sub, 0700) == 0);
	char path[128];
	snprintf(path, sizeof(path), "%s/2026_12_07_01_28_38.jfr", sub);
	FILE *out = fopen(path, "wb");
	CHECK(out && fwrite(fixture, 1, fixture_len, out) == fixture_len);
	if (out)
		fclose(out);
	CHECK(jfr_alloc_init(&a, NULL) == 0);
	CHECK(jfr_follow_open(&f, getpid(), getuid(), sub, &e) == 0);
	CHECK(jfr_follow_poll(&f, add, &a, &e) == 0);
	struct gt_alloc_snapshot s;
	memset(&s, 0, sizeof(s));
	jfr_alloc_snapshot(&a, &s);
	struct gt_alloc_stacks *st = malloc(sizeof(*st));
	CHECK(st != NULL);
	if (st) {
		jfr_alloc_stacks(&a, &s, st);
		const struct gt_alloc_site_stacks *site = gt_alloc_stacks_find(st, "AllocSites.siteA");
		CHECK(site != NULL);
		if (site && site->n) {
			CHECK_U64(site->bytes, FIXTURE_SITE_A);
			const struct gt_alloc_stack *top = &site->stacks[0];
			CHECK(top->n_frames >= 2);
			CHECK_STR(gt_alloc_stacks_name(st, top->frames[0]), "AllocSites.siteA");
			CHECK_STR(gt_alloc_stacks_name(st, top->frames[1]), "AllocSites.main");
			uint64_t sum = 0;
			for (unsigned k = 0; k < site->n; k++)
				sum += site->stacks[k].bytes;
			CHECK(sum <= site->bytes);
		}
		free(st);
	}
	jfr_follow_close(&f);
	jfr_alloc_free(&a);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/gctop-jfr-follow.XXXXXX");
	if (!mkdtemp(dir) || load_fixture() != 0) {
		printf("FAIL: test_jfr_follow: cannot set up (%s, %s)\n", dir, FIXTURE);
		return 1;
	}
	RUN_TEST(follows_chunks_in_order);
	RUN_TEST(the_stacks_behind_the_sites);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("FAIL: test_jfr_follow: cannot remove %s\n", dir);
	free(fixture);
	return check_summary();
}
