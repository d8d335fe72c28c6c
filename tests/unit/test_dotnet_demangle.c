/* C# compiler-generated method names in source form, with names crafted
 * after Roslyn's GeneratedNames (and the issue's own example). */
#include <string.h>

#include "collectors/dotnet/sampler/dotnet_demangle.h"
#include "tests/unit/check.h"

static const char *dm(const char *type, const char *method)
{
	static char out[256]; /* test-only scratch */
	gt_dn_demangle(type, method, out, sizeof(out));
	return out;
}

static void test_plain_names_stay(void)
{
	CHECK_STR(dm("System.String", "Ctor"), "System.String.Ctor");
	CHECK_STR(dm("Lines", "Small"), "Lines.Small");
	CHECK_STR(dm("", "Main"), "Main");
	CHECK_STR(dm("System.Collections.Generic.List`1[System.__Canon]", "AddWithResize"),
		  "System.Collections.Generic.List`1[System.__Canon].AddWithResize");
	CHECK_STR(dm("Outer+Inner", ".ctor"), "Outer.Inner..ctor");
	CHECK_STR(dm("Program", "<Main>$"), "Program.<Main>$");
	/* '+' inside generic arguments does not nest */
	CHECK_STR(dm("Cache`1[Outer+Key]", "Get"), "Cache`1[Outer+Key].Get");
}

static void test_local_functions(void)
{
	CHECK_STR(dm("Program", "<<Main>$>g__Slow|0_0"), "Program.<Main>$.Slow");
	CHECK_STR(dm("Program+<>c__DisplayClass0_0", "<<Main>$>g__Slow|0"), "Program.<Main>$.Slow");
	CHECK_STR(dm("Worker", "<Run>g__Step|3_1"), "Worker.Run.Step");
	/* a local function of a local function */
	CHECK_STR(dm("Worker", "<<Run>g__Outer|3_0>g__Inner|3_1"), "Worker.Run.Outer.Inner");
}

static void test_lambdas(void)
{
	CHECK_STR(dm("Worker+<>c", "<Run>b__3_0"), "Worker.Run.<lambda_3_0>");
	CHECK_STR(dm("Worker+<>c__DisplayClass3_0", "<Run>b__1"), "Worker.Run.<lambda_1>");
	CHECK_STR(dm("Program+<>c", "<<Main>$>b__0_0"), "Program.<Main>$.<lambda_0_0>");
	/* a lambda inside a local function */
	CHECK_STR(dm("Worker+<>c__DisplayClass3_0", "<<Run>g__Step|3_1>b__2"), "Worker.Run.Step.<lambda_2>");
}

static void test_state_machines(void)
{
	CHECK_STR(dm("Worker+<Fetch>d__4", "MoveNext"), "Worker.Fetch");
	CHECK_STR(dm("Program+<<Main>$>d__0", "MoveNext"), "Program.<Main>$");
	CHECK_STR(dm("Program+<<<Main>$>g__Load|0_0>d__1", "MoveNext"), "Program.<Main>$.Load");
	/* generic state machines carry their arity after the ordinal */
	CHECK_STR(dm("Ns.Repo`1+<Query>d__7`1[System.__Canon]", "MoveNext"), "Ns.Repo`1.Query");
	/* another member of a state machine keeps its own name */
	CHECK_STR(dm("Worker+<Fetch>d__4", "SetStateMachine"), "Worker.Fetch.SetStateMachine");
}

static void test_odd_shapes_are_kept(void)
{
	CHECK_STR(dm("A", "<unclosed"), "A.<unclosed");
	CHECK_STR(dm("A", "<>"), "A.<>");
	CHECK_STR(dm("A", "<X>z__1"), "A.<X>z__1");
	CHECK_STR(dm("A", "<X>g_"), "A.<X>g_");
	CHECK_STR(dm("A", "<X>g__"), "A.<X>g__");
	CHECK_STR(dm("A+", "M"), "A.M");
	CHECK_STR(dm("<PrivateImplementationDetails>", "ComputeStringHash"), "<PrivateImplementationDetails>.ComputeStringHash");
	/* nesting beyond the bound stays as written, never recursing deeper */
	char deep[200] = "";
	for (int i = 0; i < 12; i++)
		strcat(deep, "<");
	strcat(deep, "M");
	for (int i = 0; i < 12; i++)
		strcat(deep, ">g__F|0");
	const char *d = dm("T", deep);
	CHECK(strncmp(d, "T.", 2) == 0 && strcmp(d + strlen(d) - 2, ".F") == 0);
}

static void test_truncation(void)
{
	char out[8];
	gt_dn_demangle("Program", "<<Main>$>g__Slow|0_0", out, sizeof(out));
	CHECK_STR(out, "Program");
	char one[1];
	gt_dn_demangle("Program", "Main", one, sizeof(one));
	CHECK_STR(one, "");
	char mid[12];
	gt_dn_demangle("Program", "<<Main>$>g__Slow|0_0", mid, sizeof(mid));
	CHECK_STR(mid, "Program.<Ma");
}

int main(void)
{
	RUN_TEST(test_plain_names_stay);
	RUN_TEST(test_local_functions);
	RUN_TEST(test_lambdas);
	RUN_TEST(test_state_machines);
	RUN_TEST(test_odd_shapes_are_kept);
	RUN_TEST(test_truncation);
	return check_summary();
}
