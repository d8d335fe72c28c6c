/* The skeleton runtime (collectors/skeleton/) through the target, hook by
 * hook, so that it stays a backend that builds and works as its comments
 * say; and the registry's traits, which the layers above read instead of
 * naming a runtime (model/runtime.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "collectors/registry.h"
#include "collectors/skeleton/skeleton.h"
#include "collectors/target.h"
#include "frontends/options.h"
#include "model/findings_advice.h"
#include "screen/keys.h"
#include "tests/unit/check.h"

static const struct gt_backend_ops *const skeleton_only[] = { &gt_skeleton_ops, NULL };

static void test_skeleton_hooks_through_the_target(void)
{
	struct gt_error err = { 0 };
	/* not its process: the probe says no, and the target says what it wants */
	CHECK(gt_target_open_from(skeleton_only, 1, &err) == NULL);
	CHECK_U64(err.code, GT_EXIT_NOT_RUNTIME);

	struct gt_target *t = gt_target_open_from(skeleton_only, getpid(), &err);
	CHECK(t != NULL);
	if (!t)
		return;
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
	gt_target_poll(t, 1);
	gt_target_poll(t, 2);
	struct gt_sample s;
	CHECK(gt_target_sample(t, &s, &err) == 0);
	CHECK(s.opcount_total.valid);
	CHECK_U64(s.opcount_total.value, 2);
	CHECK(!s.alloc_bytes_total.valid && s.alloc_unavailable != NULL);
	CHECK(s.rss_bytes.valid); /* the host's figures, as for every runtime */

	CHECK(gt_target_enable_allocators(t, NULL, &err) == -1);
	CHECK(strstr(err.msg, "no allocation sampler") != NULL);
	CHECK(gt_target_allocators(t) == NULL);
	CHECK(gt_target_alloc_stacks(t) == NULL);
	gt_target_disable_allocators(t);
	gt_target_close(t);

	struct gt_list list = { 0 };
	gt_skeleton_ops.list(&list);
	CHECK_U64(list.count, 1);
	if (list.count)
		CHECK(list.entries[0].info.runtime == &gt_skeleton_runtime);
	gt_list_free(&list);
}

/* Registered or not, it changes nothing the user sees. */
static void test_skeleton_not_registered(void)
{
	CHECK(gt_registry_find("skeleton") == NULL);
	for (const struct gt_backend_ops *const *o = gt_backends; *o; o++)
		CHECK(*o != &gt_skeleton_ops);
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
		CHECK(gt_backends[n]->traits == rt);
	}
	CHECK(n >= 1);
	CHECK(gt_registry_find("unknown") == NULL && gt_registry_find(NULL) == NULL);
}

/* The sentences that name every runtime, as they read with two. */
static void test_registry_phrases(void)
{
	char buf[256];
	CHECK_STR(gt_registry_names(buf, sizeof(buf), " or "), "JVM or .NET");
	CHECK_STR(gt_registry_names(buf, sizeof(buf), " and "), "JVM and .NET");
	CHECK_STR(gt_registry_wanted(buf, sizeof(buf)), "a JVM with perf data nor a .NET process");
	CHECK_STR(gt_registry_opcount_takes(buf, sizeof(buf)), "a JVM's perf-data counter");
	CHECK_STR(gt_registry_names(buf, 4, " or "), "JVM");   /* cut, never overrun */
}

/* --help and the key help are checked copies (tests/static/runtime_names.py
 * lets them name runtimes): they must say what the registry says. */
static void test_help_names_the_registry(void)
{
	char buf[256];
	char phrase[300];
	snprintf(phrase, sizeof(phrase), "not a %s process", gt_registry_names(buf, sizeof(buf), " or "));
	CHECK(strstr(gt_help_text, phrase) != NULL);
	const struct gt_runtime_traits *rt;
	for (size_t i = 0; (rt = gt_registry_at(i)); i++) {
		if (!strstr(gt_help_text, rt->display))
			check_fail(__FILE__, __LINE__, "--help does not name %s", rt->display);
		if (!rt->allocators_load_code)
			continue;
		const struct gt_key_binding *k = gt_keys_lookup('a', ~0u);
		char loads[64];
		snprintf(loads, sizeof(loads), "a %s loads", rt->display);
		CHECK(k && k->help && strstr(k->help, loads));
	}
}

int main(void)
{
	RUN_TEST(test_skeleton_hooks_through_the_target);
	RUN_TEST(test_skeleton_not_registered);
	RUN_TEST(test_skeleton_advice);
	RUN_TEST(test_registry_traits);
	RUN_TEST(test_registry_phrases);
	RUN_TEST(test_help_names_the_registry);
	return check_summary();
}
