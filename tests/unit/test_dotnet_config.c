/* Reading GC settings from runtimeconfig.json text. */
#include <string.h>

#include "collectors/dotnet/dotnet_config.h"
#include "tests/unit/check.h"

static void test_json_values(void)
{
	const char *json = "{ \"runtimeOptions\": { \"configProperties\": {\n"
			   "  \"System.GC.Server\": true,\n"
			   "  \"System.GC.Concurrent\" : false,\n"
			   "  \"System.GC.HeapHardLimit\": 209715200,\n"
			   "  \"System.GC.DynamicAdaptationMode\": 0 } } }";
	uint64_t v = 0;
	CHECK(gt_dn_config_json_value(json, "System.GC.Server", NULL) == 1);
	CHECK(gt_dn_config_json_value(json, "System.GC.Concurrent", NULL) == 0);
	CHECK(gt_dn_config_json_value(json, "System.GC.HeapHardLimit", &v) == 1);
	CHECK_U64(v, 209715200);
	CHECK(gt_dn_config_json_value(json, "System.GC.DynamicAdaptationMode", &v) == 0);
	CHECK(gt_dn_config_json_value(json, "System.GC.RetainVM", NULL) == -1);
	/* a key that is only a prefix of another is not found */
	CHECK(gt_dn_config_json_value(json, "System.GC", NULL) == -1);
	/* a key without a value */
	CHECK(gt_dn_config_json_value("{\"System.GC.Server\"}", "System.GC.Server", NULL) == -1);
}

int main(void)
{
	RUN_TEST(test_json_values);
	return check_summary();
}
