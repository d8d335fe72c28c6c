/* Calls the .NET backend's census hook on a pid and prints what it
 * returned, for dotnet_census.sh (until a front end asks for it):
 *   total <count> <bytes> pause_ns <ns|-> took_ns <ns> partial <why|->
 *   type <count> <bytes> <name>          (every type, by bytes)
 * Usage: dotnet_census_probe PID SECONDS. Exit 0, or the error's status. */
#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "base/error.h"
#include "collectors/dotnet/dotnet_census.h"
#include "model/census.h"

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: dotnet_census_probe PID SECONDS\n");
		return 2;
	}
	struct gt_target_info info = { .pid = atoi(argv[1]) };
	struct gt_census c;
	struct gt_error err = { 0 };
	uint64_t deadline = gt_mono_ns() + (uint64_t)atoi(argv[2]) * 1000000000ull;
	if (gt_dn_census(&info, &c, deadline, &err) != 0) {
		fprintf(stderr, "census: %s\n", err.msg);
		return err.code ? (int)err.code : 1;
	}
	printf("total %llu %llu pause_ns ", (unsigned long long)c.total_count, (unsigned long long)c.total_bytes);
	if (c.pause_valid)
		printf("%llu", (unsigned long long)c.pause_ns);
	else
		printf("-");
	printf(" took_ns %llu partial %s\n", (unsigned long long)c.took_ns, c.partial_why ? c.partial_why : "-");
	for (size_t i = 0; i < c.n_types; i++)
		printf("type %llu %llu %s\n", (unsigned long long)c.types[i].count,
		       (unsigned long long)c.types[i].bytes, c.types[i].name);
	free(c.types);
	return 0;
}
