/* gctop --web-config's parser and loader (frontends/web_config.c,
 * web_config_load.c): the exporter-toolkit's keys are read as the toolkit
 * reads them (relative names from the file's directory, NoClientCert by
 * default, TLS12..TLS13), and each malformed file is refused with the
 * sentence that names its line and its fault, status GT_EXIT_BAD_CONFIG.
 * Certificates that parse are made and used by
 * tests/integration/serve_web_config.sh (openssl, a real Prometheus). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontends/serve_libs.h"
#include "frontends/web_config.h"
#include "tests/unit/check.h"

#define HASH "$2y$10$X0h1gDsPszWURQaxFh.zoubFi6DXncSjhoQNJgRrnGs7EsimhC7zG"

static int parse(const char *text, struct gt_web_config *c, struct gt_error *err)
{
	memset(err, 0, sizeof(*err));
	return gt_web_config_parse(text, strlen(text), c, err);
}

/* text is refused, with a sentence holding want. */
static void refused(const char *text, const char *want)
{
	struct gt_web_config c;
	struct gt_error err;
	int rc = parse(text, &c, &err);
	CHECK(rc == -1);
	CHECK(err.code == GT_EXIT_BAD_CONFIG);
	if (!strstr(err.msg, want))
		check_fail(__FILE__, __LINE__, "'%s' does not say '%s'", err.msg, want);
	if (rc == 0)
		gt_web_config_free(&c);
}

static void test_the_toolkit_sample_is_read(void)
{
	struct gt_web_config c;
	struct gt_error err;
	int rc = parse("tls_server_config:\n  cert_file: server.crt\n  key_file: \"server.key\"\n"
		       "  client_ca_file: ca.crt\n  client_auth_type: RequireAndVerifyClientCert\n"
		       "http_server_config:\n  http2: false\n"
		       "basic_auth_users:\n  prometheus: " HASH "\n  'second user': '" HASH "'\n", &c, &err);
	CHECK(rc == 0);
	if (rc != 0)
		return;
	CHECK(c.tls);
	CHECK_STR(c.pem_file[GT_WEB_CERT], "server.crt");
	CHECK_STR(c.pem_file[GT_WEB_KEY], "server.key");
	CHECK_STR(c.pem_file[GT_WEB_CLIENT_CA], "ca.crt");
	CHECK(c.client_auth == GT_WEB_REQUIRE_AND_VERIFY);
	CHECK(c.min_version == GT_WEB_TLS12 && c.max_version == GT_WEB_TLS13);
	CHECK_U64(c.n_users, 2);
	CHECK_STR(c.users[0].name, "prometheus");
	CHECK_STR(c.users[1].name, "second user");
	CHECK_STR(c.users[1].hash, HASH);
	gt_web_config_free(&c);
}

static void test_empty_and_auth_only_files_mean_no_tls(void)
{
	struct gt_web_config c;
	struct gt_error err;
	CHECK(parse("", &c, &err) == 0 && !c.tls && c.n_users == 0);
	gt_web_config_free(&c);
	CHECK(parse("---\n", &c, &err) == 0 && !c.tls);
	gt_web_config_free(&c);
	CHECK(parse("tls_server_config:\nbasic_auth_users: {u: '" HASH "'}\n", &c, &err) == 0 && !c.tls && c.n_users == 1);
	gt_web_config_free(&c);
}

static void test_inline_pem_and_versions(void)
{
	struct gt_web_config c;
	struct gt_error err;
	int rc = parse("tls_server_config:\n  cert: |\n    -----BEGIN CERTIFICATE-----\n    AA==\n"
		       "    -----END CERTIFICATE-----\n  key_file: k\n  min_version: TLS13\n", &c, &err);
	CHECK(rc == 0);
	if (rc != 0)
		return;
	CHECK(c.pem[GT_WEB_CERT] && !strncmp(c.pem[GT_WEB_CERT], "-----BEGIN CERTIFICATE-----\nAA==\n", 33));
	CHECK(!c.pem_file[GT_WEB_CERT]);
	CHECK(c.min_version == GT_WEB_TLS13);
	gt_web_config_free(&c);
}

static void test_malformed_files_are_refused_with_why(void)
{
	refused("tls_server_config:\n  cert_file: a\n  nonsense: 1\n", "line 3: unknown key 'nonsense' in tls_server_config");
	refused("listen: 1\n", "line 1: unknown key 'listen'");
	refused("tls_server_config:\n  cert_file: a\n  cert_file: b\n", "cert_file is given twice");
	refused("basic_auth_users: {u: '" HASH "'}\nbasic_auth_users: {}\n", "basic_auth_users is given twice");
	refused("base: &b {cert_file: a}\ntls_server_config: *b\n", "line 1: unknown key 'base'");
	refused("tls_server_config: &b {cert_file: a}\nbasic_auth_users: *b\n", "aliases (*name) are not accepted");
	refused("basic_auth_users:\n  u: $6$salt$notbcrypt\n", "the hash of user 'u' is not a bcrypt hash");
	refused("basic_auth_users:\n  u: $2y$31$X0h1gDsPszWURQaxFh.zoubFi6DXncSjhoQNJgRrnGs7EsimhC7zG\n", "cost above 18");
	refused("basic_auth_users:\n  u: $2y$03$X0h1gDsPszWURQaxFh.zoubFi6DXncSjhoQNJgRrnGs7EsimhC7zG\n", "cost below 4");
	refused("basic_auth_users:\n  'a:b': " HASH "\n", "holds a colon");
	refused("basic_auth_users:\n  u: " HASH "\n  u: " HASH "\n", "the user 'u' is given twice");
	refused("basic_auth_users:\n  u: \"" HASH "\\0\"\n", "holds a NUL byte");
	refused("tls_server_config:\n  cert_file: [a, b]\n", "line 2: cert_file must be a string");
	refused("tls_server_config: plain\n", "tls_server_config must be a mapping");
	refused("tls_server_config:\n  cert_file: a\n", "has no key_file");
	refused("tls_server_config:\n  key_file: a\n", "has no cert_file");
	refused("tls_server_config:\n  cert_file: a\n  cert: b\n  key_file: k\n", "both cert_file and cert");
	refused("tls_server_config:\n  cert_file: a\n  key_file: b\n  client_ca_file: c\n", "without a client_auth_type");
	refused("tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: RequireAndVerifyClientCert\n",
		"needs client_ca_file");
	refused("tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: RequireAnyClientCert\n",
		"takes any certificate unchecked");
	refused("tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: Maybe\n", "'Maybe' is not one of");
	refused("tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: TLS13\n  max_version: TLS12\n",
		"min_version is above its max_version");
	refused("tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: SSL3\n", "'SSL3', not TLS10");
	refused("tls_server_config:\n  cipher_suites: [TLS_AES_128_GCM_SHA256]\n",
		"tls_server_config.cipher_suites is not supported by gctop");
	refused("http_server_config:\n  headers: {X-Frame-Options: deny}\n", "http_server_config.headers is not supported");
	refused("http_server_config:\n  http2: maybe\n", "http2 must be true or false");
	refused("rate_limit:\n  interval: 1s\n", "rate_limit is not supported by gctop");
	refused("a: 1\n---\nb: 2\n", "unknown key 'a'");
	refused("---\n---\n", "more than one YAML document");
	refused("tls_server_config:\n  cert_file: \"open\n", "not YAML");
	refused("[1, 2]\n", "the file must be a mapping");
	refused("\x1b]0;title\x07: 1\n", "line 1: not YAML: control characters are not allowed");
	/* a key quoted in a sentence is printable ASCII whatever it holds */
	refused("\"\\e]0;title\\a\\u202e\": 1\n", "unknown key '\?]0;title\?\?\?\?'");
}

static char dir[64];

static void put(const char *name, const char *text)
{
	char p[128];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Loading dir/name: the sentence names the file and the fault. */
static void load_refused(const char *name, const char *want)
{
	char p[128];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	struct gt_web_config c;
	struct gt_error err = { 0 };
	CHECK(gt_web_config_load(p, &c, &err) == -1);
	CHECK(err.code == GT_EXIT_BAD_CONFIG);
	if (!strstr(err.msg, want) || strncmp(err.msg, "--web-config ", 13) != 0)
		check_fail(__FILE__, __LINE__, "'%s' does not say '%s'", err.msg, want);
}

static void test_load_reads_names_from_the_files_directory(void)
{
	snprintf(dir, sizeof(dir), "/tmp/gctop-web-config-XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
	load_refused("absent.yml", "cannot be read: No such file or directory");
	put("missing.yml", "tls_server_config:\n  cert_file: nope.crt\n  key_file: nope.key\n");
	load_refused("missing.yml", "cert_file 'nope.crt' cannot be read: No such file");
	put("not.crt", "not a certificate\n");
	put("not.key", "not a key\n");
	put("garbage.yml", "tls_server_config:\n  cert_file: not.crt\n  key_file: not.key\n");
	load_refused("garbage.yml", "are not a PEM certificate and its key");
	put("bad.yml", "tls_server_config:\n  cert_file: x\n  foo: 1\n");
	load_refused("bad.yml", "bad.yml: line 3: unknown key 'foo'");
	put("auth.yml", "basic_auth_users:\n  u: " HASH "\n");
	char p[128];
	snprintf(p, sizeof(p), "%s/auth.yml", dir);
	struct gt_web_config c;
	struct gt_error err = { 0 };
	CHECK(gt_web_config_load(p, &c, &err) == 0 && c.n_users == 1 && !c.tls);
	gt_web_config_free(&c);
	const char *names[] = { "missing.yml", "not.crt", "not.key", "garbage.yml", "bad.yml", "auth.yml" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

int main(void)
{
	struct gt_error err;
	if (gt_serve_libs_load(&err) != 0) {
		check_fail(__FILE__, __LINE__, "%s", err.msg);
		return check_summary();
	}
	RUN_TEST(test_the_toolkit_sample_is_read);
	RUN_TEST(test_empty_and_auth_only_files_mean_no_tls);
	RUN_TEST(test_inline_pem_and_versions);
	RUN_TEST(test_malformed_files_are_refused_with_why);
	RUN_TEST(test_load_reads_names_from_the_files_directory);
	return check_summary();
}
