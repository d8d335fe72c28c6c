/* -b text with the stacks behind the sites: the top stack of each of the
 * top three sites of the window, its share and its frames, innermost
 * first, with a target's control bytes cleaned out of every name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/alloc_stacks.h"
#include "views/text_writer.h"
#include "tests/unit/check.h"

static void add_site(struct gt_alloc_stacks *st, const char *site, const char *const *frames, unsigned n)
{
	struct gt_alloc_site_stacks *s = &st->sites[st->n_sites++];
	memset(s, 0, sizeof(*s));
	snprintf(s->site, sizeof(s->site), "%s", site);
	s->bytes = 1000;
	s->distinct = 3;
	s->n = 1;
	for (unsigned i = 0; i < n; i++)
		s->stacks[0].frames[i] = gt_alloc_stacks_intern(st, frames[i]);
	s->stacks[0].n_frames = n;
	s->stacks[0].bytes = 800;
	s->stacks[0].count = 40;
}

static void test_top_stacks_in_text(void)
{
	static struct gt_alloc_derived a;
	static struct gt_alloc_stacks st;
	static struct gt_derived d;
	struct gt_target_info info;
	memset(&info, 0, sizeof(info));
	a.valid = true;
	a.n_frames = 5;
	for (unsigned i = 0; i < a.n_frames; i++) {
		snprintf(a.by_frame[i].name, sizeof(a.by_frame[i].name), "App.site%u", i);
		gt_f64_set(&a.by_frame[i].share, 0.1);
		gt_f64_set(&a.by_frame[i].bytes_per_s, 1000);
	}
	gt_alloc_stacks_clear(&st);
	const char *json[] = { "[native]", "System.Text.Json.JsonSerializer.WriteString", "App.site0", "App.Main" };
	const char *evil[] = { "Evil\x1b[31mName", "App.site1" };
	add_site(&st, "App.site0", json, 4);
	add_site(&st, "App.site1", evil, 2);
	add_site(&st, "App.site3", json, 1);  /* fourth in the window: not shown */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(gt_text_write_block_stacks(f, &info, &d, &a, &st, NULL) == 0);
	fclose(f);
	CHECK(strstr(buf, "  top stack of App.site0: 80.0% of its bytes since sampling started (3 stacks)\n"
			  "    [native]\n    System.Text.Json.JsonSerializer.WriteString\n    App.site0\n    App.Main\n") != NULL);
	CHECK(strstr(buf, "top stack of App.site1: ") != NULL);
	CHECK(strstr(buf, "\x1b") == NULL);
	/* site2 has no stacks, site3 is past the top three */
	CHECK(strstr(buf, "top stack of App.site2") == NULL && strstr(buf, "top stack of App.site3") == NULL);
	free(buf);
	/* without stacks the block is the one -b always wrote */
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(gt_text_write_block_stacks(f, &info, &d, &a, NULL, NULL) == 0);
	fclose(f);
	CHECK(strstr(buf, "top stack") == NULL && strstr(buf, "frame ") != NULL);
	free(buf);
}

int main(void)
{
	RUN_TEST(test_top_stacks_in_text);
	return check_summary();
}
