/* gctop -l as text: every figure within the first 86 columns, so an 88-column
 * terminal shows them all, and a text cut to its column says so ("...");
 * SAMPLER says which source --allocators takes by default. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/dotnet/dotnet_runtime.h"
#include "collectors/hotspot/hotspot_runtime.h"
#include "collectors/backend.h"
#include "views/text_writer.h"
#include "tests/unit/check.h"

static char *list_text(const struct gt_list *l)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	CHECK(gt_text_write_list(f, l, 1000000) == 0);
	fclose(f);
	return buf;
}

/* Column where MAIN starts on each line: the same on every line. */
static long main_column(const char *text, const char *main_text)
{
	const char *hit = strstr(text, main_text);
	if (!hit)
		return -1;
	const char *line = hit;
	while (line > text && line[-1] != '\n')
		line--;
	return hit - line;
}

static void test_fits_88_columns(void)
{
	struct gt_list l = { 0 };
	struct gt_list_entry *e = gt_list_add(&l);
	e->info.pid = 4123456;
	e->info.runtime = &gt_hotspot_runtime;
	snprintf(e->info.runtime_version, sizeof(e->info.runtime_version), "17.0.15+6-Debian-1deb12u1");
	snprintf(e->info.gc_name, sizeof(e->info.gc_name), "Shenandoah");
	snprintf(e->info.user, sizeof(e->info.user), "billing-service");
	snprintf(e->info.main_class, sizeof(e->info.main_class), "com.example.Statements");
	snprintf(e->info.alloc_sources, sizeof(e->info.alloc_sources), "jfr,agent");
	gt_u64_set(&e->info.start_time_ms, 1000000 - 3723000);
	gt_u64_set(&e->sample.heap_used_bytes, 1536ull << 20);
	gt_u64_set(&e->sample.heap_max_bytes, 4ull << 30);
	gt_u64_set(&e->sample.rss_bytes, 5ull << 30);
	e = gt_list_add(&l);
	e->info.pid = 77;
	e->info.runtime = &gt_dotnet_runtime;
	snprintf(e->info.runtime_version, sizeof(e->info.runtime_version), "10.0.12");
	snprintf(e->info.gc_name, sizeof(e->info.gc_name), "Workstation");
	snprintf(e->info.main_class, sizeof(e->info.main_class), "CsvExport");

	char *t = list_text(&l);
	CHECK(main_column(t, "MAIN") <= 86);
	CHECK(main_column(t, "com.example.Statements") == main_column(t, "MAIN"));
	CHECK(main_column(t, "CsvExport") == main_column(t, "MAIN"));
	/* the runtime by its display name and release, as the picker says it */
	CHECK(strstr(t, "JVM 17.0.15 ") != NULL);
	CHECK(strstr(t, "hotspot") == NULL);
	CHECK(strstr(t, "Workstation") != NULL);
	CHECK(strstr(t, "Shenandoah") != NULL);
	/* the bytes in the picker's units, used and max in the larger one */
	CHECK(strstr(t, "1.50/4.00 GiB") != NULL);
	CHECK(strstr(t, "5.00 GiB") != NULL);
	CHECK(strstr(t, "01:02:03") != NULL);
	CHECK(strstr(t, ".NET 10.0.12") != NULL);
	/* the default source of --allocators, "-" where gctop cannot tell */
	CHECK(main_column(t, "SAMPLER") == main_column(t, "jfr "));
	CHECK(strstr(t, "agent") == NULL);
	CHECK(strstr(t, "Workstation -       ") != NULL);
	/* nothing known is n/a, not 0 */
	CHECK(strstr(t, " n/a ") != NULL);
	CHECK(strstr(t, "0/0") == NULL);
	free(t);
	free(l.entries);
}

int main(void)
{
	RUN_TEST(test_fits_88_columns);
	return check_summary();
}
