/* The C# compiler's names for what it generates (Roslyn's GeneratedNames):
 * "<Outer>g__Name|N_M" a local function of Outer, "<Outer>b__N_M" a lambda,
 * "<Outer>d__N" the state machine of an async method or iterator (its
 * MoveNext is Outer's body), "<>c" and "<>c__DisplayClassN_M" the classes
 * that hold lambdas and captured variables, "<Main>$" the method of
 * top-level statements (already its source form). */
#include "collectors/dotnet/sampler/dotnet_demangle.h"

#include <stdbool.h>
#include <string.h>

#include "base/text_buf.h"

/* Compiler names nest one in another a few times; a deeper name is hostile
 * or exotic and is kept as it is. */
#define NEST_MAX 8

static void put_part(struct gt_text_buf *o, const char *s, size_t n)
{
	if (o->len > 0)
		gt_text_buf_put(o, ".", 1);
	gt_text_buf_put(o, s, n);
}

/* The index of the '>' that closes s[0] == '<', or 0 when none. */
static size_t closing(const char *s, size_t n)
{
	unsigned depth = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '<')
			depth++;
		else if (s[i] == '>' && --depth == 0)
			return i;
	}
	return 0;
}

/* The kind letter of "<Outer>K__...", or 0 when s is not of that shape. */
static char generated_kind(const char *s, size_t n, size_t *close)
{
	*close = s[0] == '<' ? closing(s, n) : 0;
	if (*close < 2 || n - *close < 5)  /* "K__" and a name */
		return 0;
	const char *k = s + *close + 1;
	if (k[1] != '_' || k[2] != '_')
		return 0;
	return (k[0] == 'g' || k[0] == 'b' || k[0] == 'd') ? k[0] : 0;
}

/* A member (or state machine type) name in source form; returns its kind
 * letter ('d' for a state machine), 0 for a plain name. */
static char member(struct gt_text_buf *o, const char *s, size_t n, unsigned depth)
{
	size_t e;
	char kind = n > 0 && depth < NEST_MAX ? generated_kind(s, n, &e) : 0;
	if (!kind) {
		put_part(o, s, n);
		return 0;
	}
	member(o, s + 1, e - 1, depth + 1);
	const char *t = s + e + 4;
	size_t tn = n - e - 4;
	if (kind == 'g') {
		put_part(o, t, strcspn(t, "|") < tn ? strcspn(t, "|") : tn);
	} else if (kind == 'b') {
		put_part(o, "<lambda_", 8);
		gt_text_buf_put(o, t, tn);
		gt_text_buf_put(o, ">", 1);
	}
	return kind;
}

/* The end of the next '+'-separated part of a type name: '+' inside
 * generic arguments ("List`1[Outer+Inner]") does not separate. */
static size_t part_end(const char *s)
{
	unsigned brackets = 0;
	size_t i = 0;
	for (; s[i]; i++) {
		if (s[i] == '[')
			brackets++;
		else if (s[i] == ']' && brackets > 0)
			brackets--;
		else if (s[i] == '+' && brackets == 0)
			break;
	}
	return i;
}

void gt_dn_demangle(const char *type, const char *method, char *out, size_t len)
{
	struct gt_text_buf o = gt_text_buf_at(out, len);
	bool state_machine = false;
	for (bool first = true; *type; first = false) {
		size_t n = part_end(type);
		state_machine = false;
		if (first)
			put_part(&o, type, n);
		else if (strncmp(type, "<>c", 3) != 0)
			state_machine = member(&o, type, n, 0) == 'd';
		/* a display class or lambda holder: its members belong to
		 * the method the compiler took them from, named in them */
		type += n;
		if (*type == '+')
			type++;
	}
	if (state_machine && strcmp(method, "MoveNext") == 0)
		return;
	member(&o, method, strlen(method), 0);
}
