#include "model/opcount_spec.h"

#include <ctype.h>
#include <string.h>

bool gt_opcount_is_jmx(const char *spec)
{
	return strncmp(spec, GT_OPCOUNT_JMX_PREFIX, strlen(GT_OPCOUNT_JMX_PREFIX)) == 0;
}

bool gt_opcount_is_server(const char *spec)
{
	return strcmp(spec, GT_OPCOUNT_SERVER_REQUESTS) == 0;
}

static bool printable_ascii(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] >= 0x7f)
			return false;
	return true;
}

int gt_opcount_jmx_split(const char *spec, char *name, char *attr, const char **why)
{
	*why = NULL;
	if (!gt_opcount_is_jmx(spec)) {
		*why = "it does not start with jmx:";
		return -1;
	}
	const char *on = spec + strlen(GT_OPCOUNT_JMX_PREFIX);
	const char *last = strrchr(on, ':');
	const char *first = strchr(on, ':');
	size_t n = last ? (size_t)(last - on) : 0;
	if (!last || first == last || last[1] == '\0')
		*why = "it wants jmx:DOMAIN:KEY=VALUE,...:ATTRIBUTE (the ObjectName, a colon, the attribute)";
	else if (first + 1 == last)
		*why = "the ObjectName has no keys after its domain";
	else if (n > GT_OPCOUNT_JMX_NAME_MAX)
		*why = "the ObjectName is longer than 200 characters";
	else if (!printable_ascii(on, n))
		*why = "the ObjectName holds characters other than printable ASCII";
	else if (strlen(last + 1) > GT_OPCOUNT_JMX_ATTR_MAX)
		*why = "the attribute's name is longer than 63 characters";
	for (const char *p = last ? last + 1 : ""; !*why && *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_$-", *p))
			*why = "the attribute's name holds characters other than letters, digits and _ $ -";
	if (*why)
		return -1;
	memcpy(name, on, n);
	name[n] = '\0';
	strcpy(attr, last + 1);
	return 0;
}
