/* gctop --web-config: the exporter-toolkit's file, parsed strictly
 * (web_config.h). libyaml (Debian's libyaml-dev) reads it: the toolkit's
 * files are YAML in every style a hand or a tool writes (block or flow,
 * quoted or plain, inline PEM as a literal block), which a parser of our own
 * would get wrong at the edges; the event API lets this walk only the shape
 * the toolkit defines and refuse anything else at its first event, so no
 * tree is built from the file and no depth or size is left to libyaml. */
#include "frontends/web_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/serve_libs.h"

/* The walk: libyaml's parser and the event being looked at. */
struct walk {
	yaml_parser_t parser;
	yaml_event_t ev;
	bool have;               /* ev holds an event to delete */
	struct gt_error *err;
};

static unsigned walk_line(const struct walk *w)
{
	return (unsigned)w->ev.start_mark.line + 1;
}

/* A key or value quoted in a sentence: printable ASCII only, cut short. */
static const char *quoted(char *out, size_t size, const char *in)
{
	size_t n = 0;
	for (; in && *in && n + 4 < size; in++)
		out[n++] = (*in >= 0x20 && *in < 0x7f) ? *in : '?';
	if (in && *in)
		out[n++] = '.', out[n++] = '.', out[n++] = '.';
	out[n] = '\0';
	return out;
}

#define WALK_FAIL(w, ...) gt_fail((w)->err, GT_EXIT_BAD_CONFIG, __VA_ARGS__)

/* The next event; aliases are refused (a file of a few keys needs none,
 * and they are how YAML bombs multiply). */
static int walk_next(struct walk *w)
{
	if (w->have)
		gt_serve_libs.yaml_event_delete(&w->ev);
	w->have = false;
	if (!gt_serve_libs.yaml_parser_parse(&w->parser, &w->ev))
		return WALK_FAIL(w, "line %u: not YAML: %s", (unsigned)w->parser.problem_mark.line + 1,
				 w->parser.problem ? w->parser.problem : "a syntax error");
	w->have = true;
	if (w->ev.type == YAML_ALIAS_EVENT)
		return WALK_FAIL(w, "line %u: YAML aliases (*name) are not accepted here", walk_line(w));
	return 0;
}

static bool is_scalar(const struct walk *w)
{
	return w->ev.type == YAML_SCALAR_EVENT;
}

/* A plain empty, ~ or null scalar: YAML's null, which the toolkit reads as
 * an empty value. */
static bool is_null(const struct walk *w)
{
	if (!is_scalar(w) || w->ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	const char *v = (const char *)w->ev.data.scalar.value;
	return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL");
}

/* The current scalar's text, copied, "" for null; NULL with err when it is
 * not a string or holds a NUL byte. */
static char *scalar_copy(struct walk *w, const char *what)
{
	char q[64];
	if (!is_scalar(w)) {
		WALK_FAIL(w, "line %u: %s must be a string", walk_line(w), quoted(q, sizeof(q), what));
		return NULL;
	}
	size_t n = w->ev.data.scalar.length;
	const char *v = (const char *)w->ev.data.scalar.value;
	if (is_null(w))
		n = 0;
	if (memchr(v, '\0', n)) {
		WALK_FAIL(w, "line %u: %s holds a NUL byte", walk_line(w), quoted(q, sizeof(q), what));
		return NULL;
	}
	char *s = strndup(v, n);
	if (!s)
		WALK_FAIL(w, "out of memory");
	return s;
}

/* Moves to a section's value: 1 at its mapping's start, 0 when it is null
 * (an empty section), -1 with err otherwise. */
static int section_start(struct walk *w, const char *what)
{
	if (walk_next(w) != 0)
		return -1;
	if (w->ev.type == YAML_MAPPING_START_EVENT)
		return 1;
	if (is_null(w))
		return 0;
	return WALK_FAIL(w, "line %u: %s must be a mapping of keys to values", walk_line(w), what);
}

/* The next key of a mapping: 1 with the key in w->ev, 0 at the mapping's
 * end, -1 with err. */
static int next_key(struct walk *w, const char *what)
{
	if (walk_next(w) != 0)
		return -1;
	if (w->ev.type == YAML_MAPPING_END_EVENT)
		return 0;
	if (!is_scalar(w) || is_null(w))
		return WALK_FAIL(w, "line %u: a key of %s must be a non-empty string", walk_line(w), what);
	return 1;
}

static const char *key_of(const struct walk *w)
{
	return (const char *)w->ev.data.scalar.value;
}

/* tls_server_config's keys gctop applies, in the order of slots[] below. */
enum tls_key { K_CERT_FILE, K_KEY_FILE, K_CA_FILE, K_CERT, K_KEY, K_CA, K_AUTH, K_MIN, K_MAX, N_TLS_KEYS };
static const char *const tls_keys[N_TLS_KEYS] = {
	"cert_file", "key_file", "client_ca_file", "cert", "key", "client_ca",
	"client_auth_type", "min_version", "max_version",
};
/* Keys the toolkit knows that gctop does not apply: refused by name. */
static const char *const tls_unsupported[] = {
	"cipher_suites", "curve_preferences", "prefer_server_cipher_suites", "client_allowed_sans",
};

struct tls_text {
	char *v[N_TLS_KEYS];     /* NULL: not given; "" given empty */
};

static int unknown_key(struct walk *w, const char *section, const char *const *unsupported, size_t n)
{
	char q[64];
	quoted(q, sizeof(q), key_of(w));
	for (size_t i = 0; i < n; i++)
		if (!strcmp(key_of(w), unsupported[i]))
			return WALK_FAIL(w, "line %u: %s%s%s is not supported by gctop (see gctop(1), SECURITY)",
					 walk_line(w), section, *section ? "." : "", q);
	return WALK_FAIL(w, "line %u: unknown key '%s'%s%s", walk_line(w), q, *section ? " in " : "", section);
}

static int parse_tls(struct walk *w, struct tls_text *t)
{
	int rc = section_start(w, "tls_server_config");
	while (rc == 1 && (rc = next_key(w, "tls_server_config")) == 1) {
		size_t k = 0;
		while (k < N_TLS_KEYS && strcmp(key_of(w), tls_keys[k]) != 0)
			k++;
		if (k == N_TLS_KEYS)
			return unknown_key(w, "tls_server_config", tls_unsupported,
					   sizeof(tls_unsupported) / sizeof(tls_unsupported[0]));
		if (t->v[k])
			return WALK_FAIL(w, "line %u: tls_server_config.%s is given twice", walk_line(w), tls_keys[k]);
		if (walk_next(w) != 0 || !(t->v[k] = scalar_copy(w, tls_keys[k])))
			return -1;
	}
	return rc;
}

/* YAML 1.1's booleans as go-yaml reads them. */
static int scalar_bool(struct walk *w, const char *what, bool *out)
{
	static const char *const yes[] = { "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON" };
	static const char *const no[] = { "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF" };
	if (walk_next(w) != 0)
		return -1;
	for (size_t i = 0; is_scalar(w) && i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcmp(key_of(w), yes[i]) || !strcmp(key_of(w), no[i])) {
			*out = !strcmp(key_of(w), yes[i]);
			return 0;
		}
	}
	return WALK_FAIL(w, "line %u: %s must be true or false", walk_line(w), what);
}

/* http_server_config: http2 is taken and has nothing to do (gctop speaks
 * HTTP/1.1 only; a client falls back to it); headers are refused. */
static int parse_http(struct walk *w)
{
	static const char *const unsupported[] = { "headers" };
	bool seen = false, http2;
	int rc = section_start(w, "http_server_config");
	while (rc == 1 && (rc = next_key(w, "http_server_config")) == 1) {
		if (strcmp(key_of(w), "http2") != 0)
			return unknown_key(w, "http_server_config", unsupported, 1);
		if (seen)
			return WALK_FAIL(w, "line %u: http_server_config.http2 is given twice", walk_line(w));
		seen = true;
		if (scalar_bool(w, "http_server_config.http2", &http2) != 0)
			return -1;
	}
	return rc;
}

/* A bcrypt hash as libxcrypt and the toolkit take it: $2a$, $2b$ or $2y$,
 * a two-digit cost, 53 characters of bcrypt's base64. */
static const char *bcrypt_problem(const char *h)
{
	static const char b64[] = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	if (strlen(h) != GT_WEB_BCRYPT_LEN || h[0] != '$' || h[1] != '2' || !strchr("aby", h[2]) || h[2] == '\0' ||
	    h[3] != '$' || h[4] < '0' || h[4] > '9' || h[5] < '0' || h[5] > '9' || h[6] != '$' ||
	    strspn(h + 7, b64) != GT_WEB_BCRYPT_LEN - 7)
		return "is not a bcrypt hash ($2y$, $2b$ or $2a$, cost, 53 characters; htpasswd -nbB makes one)";
	unsigned cost = (unsigned)(h[4] - '0') * 10 + (unsigned)(h[5] - '0');
	if (cost < 4)
		return "has a bcrypt cost below 4, which bcrypt does not define";
	if (cost > GT_WEB_MAX_BCRYPT_COST)
		return "has a bcrypt cost above 18: each first check of a password would take many seconds";
	if (gt_serve_libs.crypt_checksalt(h) != CRYPT_SALT_OK)
		return "is a bcrypt hash this system's libcrypt does not accept";
	return NULL;
}

/* A user name Basic authentication can carry: no colon, no control. */
static bool user_name_ok(const char *n)
{
	size_t len = strlen(n);
	if (!len || len > GT_WEB_MAX_USER_NAME || strchr(n, ':'))
		return false;
	for (; *n; n++)
		if ((unsigned char)*n < 0x20 || *n == 0x7f)
			return false;
	return true;
}

static int parse_user(struct walk *w, struct gt_web_config *c)
{
	char q[64];
	quoted(q, sizeof(q), key_of(w));
	unsigned line = walk_line(w);
	if (!user_name_ok(key_of(w)))
		return WALK_FAIL(w, "line %u: the user name '%s' is empty, too long, or holds a colon or a control", line, q);
	for (size_t i = 0; i < c->n_users; i++)
		if (!strcmp(c->users[i].name, key_of(w)))
			return WALK_FAIL(w, "line %u: the user '%s' is given twice", line, q);
	if (c->n_users == GT_WEB_MAX_USERS)
		return WALK_FAIL(w, "line %u: more than %u users in basic_auth_users", line, GT_WEB_MAX_USERS);
	struct gt_web_user *u = &c->users[c->n_users];
	snprintf(u->name, sizeof(u->name), "%s", key_of(w));
	char *h = walk_next(w) == 0 ? scalar_copy(w, "a basic_auth_users hash") : NULL;
	if (!h)
		return -1;
	const char *why = bcrypt_problem(h);
	if (!why)
		snprintf(u->hash, sizeof(u->hash), "%s", h);
	free(h);
	if (why)
		return WALK_FAIL(w, "line %u: the hash of user '%s' %s", line, q, why);
	c->n_users++;
	return 0;
}

static int parse_users(struct walk *w, struct gt_web_config *c)
{
	int rc = section_start(w, "basic_auth_users");
	while (rc == 1 && (rc = next_key(w, "basic_auth_users")) == 1)
		if (parse_user(w, c) != 0)
			return -1;
	return rc;
}

/* The top level's sections, each at most once. */
static int parse_top(struct walk *w, struct gt_web_config *c, struct tls_text *t)
{
	static const char *const sections[] = { "tls_server_config", "http_server_config", "basic_auth_users" };
	static const char *const unsupported[] = { "rate_limit" };
	bool seen[3] = { false, false, false };
	int rc;
	while ((rc = next_key(w, "the file")) == 1) {
		size_t s = 0;
		while (s < 3 && strcmp(key_of(w), sections[s]) != 0)
			s++;
		if (s == 3)
			return unknown_key(w, "", unsupported, 1);
		if (seen[s])
			return WALK_FAIL(w, "line %u: %s is given twice", walk_line(w), sections[s]);
		seen[s] = true;
		rc = s == 0 ? parse_tls(w, t) : s == 1 ? parse_http(w) : parse_users(w, c);
		if (rc < 0)
			return -1;
	}
	return rc;
}

/* The document: one mapping, or nothing (an empty file: no TLS, no users). */
static int parse_document(struct walk *w, struct gt_web_config *c, struct tls_text *t)
{
	if (walk_next(w) != 0)
		return -1;
	if (w->ev.type != YAML_STREAM_START_EVENT)
		return WALK_FAIL(w, "not YAML");
	if (walk_next(w) != 0)
		return -1;
	if (w->ev.type == YAML_STREAM_END_EVENT)
		return 0;
	if (walk_next(w) != 0)      /* past the document's start */
		return -1;
	if (w->ev.type == YAML_MAPPING_START_EVENT) {
		if (parse_top(w, c, t) != 0)
			return -1;
	} else if (!is_null(w)) {
		return WALK_FAIL(w, "line %u: the file must be a mapping (tls_server_config:, basic_auth_users:)", walk_line(w));
	}
	if (walk_next(w) != 0 || walk_next(w) != 0)   /* the document's end, then the stream's */
		return -1;
	if (w->ev.type != YAML_STREAM_END_EVENT)
		return WALK_FAIL(w, "line %u: more than one YAML document", walk_line(w));
	return 0;
}

static int version_of(const char *s, const char *what, enum gt_web_tls_version *v, struct gt_error *err)
{
	static const char *const names[] = { "TLS10", "TLS11", "TLS12", "TLS13" };
	for (size_t i = 0; i < 4; i++)
		if (!strcmp(s, names[i])) {
			*v = (enum gt_web_tls_version)i;
			return 0;
		}
	char q[64];
	return gt_fail(err, GT_EXIT_BAD_CONFIG, "tls_server_config.%s is '%s', not TLS10, TLS11, TLS12 or TLS13", what,
		       quoted(q, sizeof(q), s));
}

/* client_auth_type: the toolkit's names. The two that take any certificate
 * without checking it are refused (the toolkit's docs call every type but
 * RequireAndVerifyClientCert insecure; these do not even check). */
static int client_auth_of(const char *s, enum gt_web_client_auth *a, struct gt_error *err)
{
	char q[64];
	if (!*s || !strcmp(s, "NoClientCert"))
		*a = GT_WEB_NO_CLIENT_CERT;
	else if (!strcmp(s, "VerifyClientCertIfGiven"))
		*a = GT_WEB_VERIFY_IF_GIVEN;
	else if (!strcmp(s, "RequireAndVerifyClientCert"))
		*a = GT_WEB_REQUIRE_AND_VERIFY;
	else if (!strcmp(s, "RequestClientCert") || !strcmp(s, "RequireAnyClientCert") || !strcmp(s, "RequireClientCert"))
		return gt_fail(err, GT_EXIT_BAD_CONFIG,
			       "client_auth_type %s takes any certificate unchecked, which gctop does not do: "
			       "use RequireAndVerifyClientCert with client_ca_file", s);
	else
		return gt_fail(err, GT_EXIT_BAD_CONFIG, "client_auth_type '%s' is not one of NoClientCert, "
			       "VerifyClientCertIfGiven, RequireAndVerifyClientCert", quoted(q, sizeof(q), s));
	return 0;
}

/* Moves one PEM's file name or inline text into c; both given is refused,
 * as the toolkit's docs say. */
static int take_pem(struct gt_web_config *c, struct tls_text *t, enum gt_web_pem p, struct gt_error *err)
{
	static const enum tls_key file_key[GT_WEB_PEMS] = { K_CERT_FILE, K_KEY_FILE, K_CA_FILE };
	static const enum tls_key text_key[GT_WEB_PEMS] = { K_CERT, K_KEY, K_CA };
	char **file = &t->v[file_key[p]], **text = &t->v[text_key[p]];
	if (*file && **file && *text && **text)
		return gt_fail(err, GT_EXIT_BAD_CONFIG, "tls_server_config has both %s and %s; give one",
			       tls_keys[file_key[p]], tls_keys[text_key[p]]);
	if (*file && **file)
		c->pem_file[p] = *file, *file = NULL;
	if (*text && **text)
		c->pem[p] = *text, *text = NULL;
	return 0;
}

/* What the toolkit checks of tls_server_config, on the parsed text. */
static int check_tls(struct gt_web_config *c, struct tls_text *t, struct gt_error *err)
{
	for (int p = 0; p < GT_WEB_PEMS; p++)
		if (take_pem(c, t, (enum gt_web_pem)p, err) != 0)
			return -1;
	c->min_version = GT_WEB_TLS12;
	c->max_version = GT_WEB_TLS13;
	if ((t->v[K_MIN] && *t->v[K_MIN] && version_of(t->v[K_MIN], "min_version", &c->min_version, err) != 0) ||
	    (t->v[K_MAX] && *t->v[K_MAX] && version_of(t->v[K_MAX], "max_version", &c->max_version, err) != 0))
		return -1;
	if (client_auth_of(t->v[K_AUTH] ? t->v[K_AUTH] : "", &c->client_auth, err) != 0)
		return -1;
	bool ca = c->pem_file[GT_WEB_CLIENT_CA] || c->pem[GT_WEB_CLIENT_CA];
	c->tls = c->pem_file[GT_WEB_CERT] || c->pem[GT_WEB_CERT] || c->pem_file[GT_WEB_KEY] || c->pem[GT_WEB_KEY] ||
		 ca || (t->v[K_AUTH] && *t->v[K_AUTH]);
	if (!c->tls)
		return 0;
	if (!c->pem_file[GT_WEB_CERT] && !c->pem[GT_WEB_CERT])
		return gt_fail(err, GT_EXIT_BAD_CONFIG, "tls_server_config has no cert_file (or cert)");
	if (!c->pem_file[GT_WEB_KEY] && !c->pem[GT_WEB_KEY])
		return gt_fail(err, GT_EXIT_BAD_CONFIG, "tls_server_config has no key_file (or key)");
	if (ca && c->client_auth == GT_WEB_NO_CLIENT_CERT)
		return gt_fail(err, GT_EXIT_BAD_CONFIG, "client_ca_file is given without a client_auth_type that checks "
			       "clients (RequireAndVerifyClientCert)");
	if (!ca && c->client_auth != GT_WEB_NO_CLIENT_CERT)
		return gt_fail(err, GT_EXIT_BAD_CONFIG, "client_auth_type %s needs client_ca_file (or client_ca)", t->v[K_AUTH]);
	if (c->min_version > c->max_version)
		return gt_fail(err, GT_EXIT_BAD_CONFIG, "tls_server_config's min_version is above its max_version");
	return 0;
}

int gt_web_config_parse(const char *text, size_t len, struct gt_web_config *c, struct gt_error *err)
{
	memset(c, 0, sizeof(*c));
	struct tls_text t = { { NULL } };
	struct walk w = { .err = err };
	if (len > GT_WEB_MAX_FILE)
		return gt_fail(err, GT_EXIT_BAD_CONFIG, "the file is over %zu bytes", GT_WEB_MAX_FILE);
	if (!gt_serve_libs.yaml_parser_initialize(&w.parser))
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	gt_serve_libs.yaml_parser_set_input_string(&w.parser, (const unsigned char *)text, len);
	int rc = parse_document(&w, c, &t);
	if (w.have)
		gt_serve_libs.yaml_event_delete(&w.ev);
	gt_serve_libs.yaml_parser_delete(&w.parser);
	if (rc == 0)
		rc = check_tls(c, &t, err);
	for (int k = 0; k < N_TLS_KEYS; k++)
		free(t.v[k]);
	if (rc != 0)
		gt_web_config_free(c);
	return rc;
}

void gt_web_config_free(struct gt_web_config *c)
{
	for (int p = 0; p < GT_WEB_PEMS; p++) {
		free(c->pem_file[p]);
		if (c->pem[p])
			explicit_bzero(c->pem[p], strlen(c->pem[p]));
		free(c->pem[p]);
	}
	explicit_bzero(c, sizeof(*c));
}
