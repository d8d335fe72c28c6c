/* The skeleton runtime (collectors/skeleton/) through the target, hook by
 * hook, so that it stays a backend that builds and works as its comments
 * say; and the registry's traits, which the layers above read instead of
 * naming a runtime (model/runtime.h). Nothing here counts the runtimes or
 * names one the registry lists: tests/static/third_runtime.sh runs it in a
 * copy whose registry lists the skeleton as a third. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/registry.h"
#include "collectors/skeleton/skeleton_internal.h"
#include "collectors/target.h"
#include "frontends/help.h"
#include "model/census.h"
#include "model/findings_advice.h"
#include "tui/keys.h"
#include "tui/picker.h"
#include "tests/unit/check.h"

/* As collectors/registry.c declares it. */
extern const struct gt_backend_ops gt_skeleton_ops;

static const struct gt_backend_ops *const skeleton_only[] = { &gt_skeleton_ops, NULL };

/* The file that makes this process the skeleton's (skeleton_internal.h). */
static void arranged_path(char *path, size_t len)
{
	snprintf(path, len, "%s/%s%d", GT_SKELETON_DIR, GT_SKELETON_PREFIX, (int)getpid());
}

static bool arrange(void)
{
	char path[64];
	arranged_path(path, sizeof(path));
	unlink(path);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	return fd >= 0 && close(fd) == 0;
}

static void unarrange(void)
{
	char path[64];
	arranged_path(path, sizeof(path));
	unlink(path);
}

/* How many of the skeleton's listed processes are this one. */
static size_t listed_self(void)
{
	struct gt_list list = { 0 };
	size_t n = 0;
	gt_skeleton_ops.list(&list);
	for (size_t i = 0; i < list.count; i++) {
		CHECK(list.entries[i].info.runtime == &gt_skeleton_runtime);
		n += list.entries[i].info.pid == getpid();
	}
	gt_list_free(&list);
	return n;
}

/* Unless a test arranged it, the skeleton claims no process, itself
 * included: registered, it lists and opens nothing real. */
static void test_skeleton_claims_only_what_is_arranged(void)
{
	struct gt_error err = { 0 };
	unarrange();
	CHECK(gt_target_open_from(skeleton_only, getpid(), &err) == NULL);
	CHECK_U64(err.code, GT_EXIT_NOT_RUNTIME);
	CHECK(gt_target_open_from(skeleton_only, 1, &err) == NULL);
	CHECK_U64(listed_self(), 0);
	CHECK(arrange());
	CHECK_U64(listed_self(), 1);
	unarrange();
	CHECK_U64(listed_self(), 0);

	/* a link in its place is refused, not followed */
	char path[64];
	arranged_path(path, sizeof(path));
	CHECK(symlink("/etc/hostname", path) == 0);
	CHECK(gt_target_open_from(skeleton_only, getpid(), &err) == NULL);
	CHECK_U64(err.code, GT_EXIT_BAD_DATA);
	CHECK_U64(listed_self(), 0);
	unarrange();
}

static void test_skeleton_hooks_through_the_target(void)
{
	struct gt_error err = { 0 };
	CHECK(arrange());
	struct gt_target *t = gt_target_open_from(skeleton_only, getpid(), &err);
	CHECK(t != NULL);
	if (!t) {
		unarrange();
		return;
	}
	const struct gt_target_info *info = gt_target_info(t);
	CHECK(info->runtime == &gt_skeleton_runtime);
	CHECK_STR(gt_runtime_name(info->runtime), "skeleton");
	CHECK_STR(info->source, "skeleton");
	CHECK_U64(gt_target_poll_interval_ns(t), 100000000ull);
	CHECK(gt_target_wait_fd(t) == -1);
	CHECK(!gt_target_wait_may_lag(t));
	gt_target_settle(t, 0);

	CHECK(gt_target_set_opcount(t, "requests", &err) == -1);
	CHECK_U64(err.code, GT_EXIT_USAGE);
	CHECK(gt_target_set_opcount(t, GT_SKELETON_OPCOUNT_COUNTER, &err) == 0);
	CHECK(gt_target_enable_opcount_agent(t, &err) == 0);
	gt_target_poll(t, 1);
	gt_target_poll(t, 2);
	struct gt_sample s;
	CHECK(gt_target_sample(t, &s, &err) == 0);
	CHECK(s.opcount_total.valid);
	CHECK_U64(s.opcount_total.value, 2);
	CHECK(!s.alloc_bytes_total.valid && s.alloc_unavailable != NULL);
	CHECK(s.rss_bytes.valid); /* the host's figures, as for every runtime */

	CHECK(gt_target_enable_allocators(t, NULL, NULL, &err) == -1);
	CHECK(strstr(err.msg, "no allocation sampler") != NULL);
	CHECK(gt_target_allocators(t) == NULL);
	CHECK(gt_target_alloc_stacks(t) == NULL);
	gt_target_disable_allocators(t);

	gt_census_fn census = gt_target_census_fn(t);
	struct gt_census c;
	CHECK(census && census(info, &c, 0, &err) == 0);
	CHECK_U64(c.n_types, 0);
	CHECK(c.wall_ms > 0);
	gt_census_free(&c);
	gt_target_close(t);
	unarrange();
}

/* A runtime the advice table has no row of its own for takes the shared
 * rows, never another runtime's words. */
static void test_skeleton_advice(void)
{
	char buf[512];
	gt_findings_advice(buf, sizeof(buf), "pause-share", &gt_skeleton_runtime, GT_FRONT_OPTIONS);
	CHECK_STR(buf, "allocate less, or give the youngest generation more room so that it fills less often; "
		       "gctop --allocators shows who allocates");
	gt_findings_advice(buf, sizeof(buf), "oom-kills", &gt_skeleton_runtime, GT_FRONT_OPTIONS);
	CHECK(strstr(buf, "container") != NULL);
	/* a finding only another runtime's figures raise has no row for it */
	gt_findings_advice(buf, sizeof(buf), "g1-humongous", &gt_skeleton_runtime, GT_FRONT_OPTIONS);
	CHECK_STR(buf, "");
}

/* Every runtime the registry lists declares what the layers above read. */
static void test_registry_traits(void)
{
	const struct gt_runtime_traits *rt;
	size_t n = 0;
	for (; (rt = gt_registry_at(n)); n++) {
		CHECK(rt->name && rt->display && rt->wanted && rt->allocators_stop && rt->induced_call);
		CHECK(rt->words && rt->words[0] && strcmp(rt->words[0], rt->display) == 0);
		CHECK(gt_registry_find(rt->name) == rt);
		/* counting its own operations and taking no --ops are one fact */
		CHECK(rt->own_opcount == (gt_backends[n]->set_opcount == NULL));
		CHECK(rt->own_opcount == (rt->opcount_own != NULL));
		CHECK(rt->own_opcount != (rt->opcount_takes != NULL));
		CHECK(rt->allocators_load_code <= (gt_backends[n]->enable_allocators != NULL));
		/* a census hook and the cost the y/N states are one fact */
		CHECK((gt_backends[n]->census != NULL) == (rt->census_cost != NULL));
		CHECK(rt->help.reads != NULL);
		CHECK((rt->help.allocators != NULL) <= (gt_backends[n]->enable_allocators != NULL));
		for (const struct gt_gc_name *g = rt->gc_names; g && g->name; g++)
			CHECK(g->whole && g->brief && strlen(g->brief) <= GT_PICKER_GC_BRIEF);
		CHECK(gt_backends[n]->traits == rt);
	}
	CHECK(n >= 1);
	CHECK(gt_registry_find("unknown") == NULL && gt_registry_find(NULL) == NULL);
}

/* field(rt) of every runtime that has one, joined as a sentence says
 * them: "a, b conj c". The test's own join, for the registry's. */
static void joined(char *buf, size_t len, const char *(*field)(const struct gt_runtime_traits *), const char *conj)
{
	const char *words[16];
	size_t n = 0;
	const struct gt_runtime_traits *rt;
	for (size_t i = 0; (rt = gt_registry_at(i)) && n < 16; i++)
		if (field(rt))
			words[n++] = field(rt);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		strncat(buf, i == 0 ? "" : i + 1 == n ? conj : ", ", len - strlen(buf) - 1);
		strncat(buf, words[i], len - strlen(buf) - 1);
	}
}

static const char *display_of(const struct gt_runtime_traits *rt) { return rt->display; }
static const char *wanted_of(const struct gt_runtime_traits *rt) { return rt->wanted; }
static const char *takes_of(const struct gt_runtime_traits *rt) { return rt->opcount_takes; }

/* The sentences that name every runtime, however many the registry
 * lists: "JVM or .NET" with two, "JVM, .NET or Skeleton" with three. */
static void test_registry_phrases(void)
{
	char buf[512], want[512];
	joined(want, sizeof(want), display_of, " or ");
	CHECK_STR(gt_registry_names(buf, sizeof(buf), " or "), want);
	joined(want, sizeof(want), display_of, " and ");
	CHECK_STR(gt_registry_names(buf, sizeof(buf), " and "), want);
	joined(want, sizeof(want), wanted_of, " nor ");
	CHECK_STR(gt_registry_wanted(buf, sizeof(buf)), want);
	joined(want, sizeof(want), takes_of, " or ");
	CHECK_STR(gt_registry_opcount_takes(buf, sizeof(buf)), want);
	snprintf(want, 4, "%s", gt_registry_at(0)->display);
	CHECK_STR(gt_registry_names(buf, 4, " or "), want);   /* cut, never overrun */
}

/* Whitespace runs as one space: --help wraps its paragraphs. */
static void squeeze(char *s)
{
	char *out = s;
	for (const char *in = s; *in; in++)
		if (!(*in == ' ' || *in == '\n') || (out > s && out[-1] != ' '))
			*out++ = *in == '\n' ? ' ' : *in;
	*out = '\0';
}

static void check_has(const char *help, const char *what, const char *field)
{
	if (!what)
		return;
	char want[1024];
	snprintf(want, sizeof(want), "%s", what);
	squeeze(want);
	if (!strstr(help, want))
		check_fail(__FILE__, __LINE__, "--help lacks the %s of the registry: %s", field, want);
}

/* --help says what each registered runtime's traits say, and the key
 * help and the exit statuses name none: they hold for any runtime. */
static void test_help_says_the_registry(void)
{
	char *help = gt_help_text();
	CHECK(help != NULL);
	if (!help)
		return;
	squeeze(help);
	const struct gt_runtime_traits *rt;
	for (size_t i = 0; (rt = gt_registry_at(i)); i++) {
		check_has(help, rt->help.reads, "reads");
		check_has(help, rt->help.allocators, "allocators");
		check_has(help, rt->help.packages, "packages");
		check_has(help, rt->help.opcount, "opcount");
		check_has(help, rt->help.census, "census");
	}
	const char *statuses = strstr(help, "Exit status:");
	const struct gt_key_binding *k = gt_keys_lookup('a', ~0u);
	CHECK(statuses && strstr(statuses, " 4 of no runtime gctop reads "));
	CHECK(k && k->help && strstr(k->help, "asks y/N first where that loads code"));
	for (size_t i = 0; statuses && k && (rt = gt_registry_at(i)); i++) {
		if (strstr(statuses, rt->display))
			check_fail(__FILE__, __LINE__, "--help's exit statuses name %s", rt->display);
		if (strstr(k->help, rt->display))
			check_fail(__FILE__, __LINE__, "key a's help names %s", rt->display);
	}
	free(help);
}

int main(void)
{
	RUN_TEST(test_skeleton_claims_only_what_is_arranged);
	RUN_TEST(test_skeleton_hooks_through_the_target);
	RUN_TEST(test_skeleton_advice);
	RUN_TEST(test_registry_traits);
	RUN_TEST(test_registry_phrases);
	RUN_TEST(test_help_says_the_registry);
	unarrange();
	return check_summary();
}
