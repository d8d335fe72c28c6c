/* The libraries only --serve uses, loaded when it starts rather than by the
 * dynamic linker at every run.
 *
 * Why: linked into gctop, libmicrohttpd and GnuTLS (with p11-kit, nettle,
 * hogweed, gmp, tasn1, idn2, unistring, ffi behind it), libyaml and
 * libcrypt were mapped and relocated by every run, --serve or not: 27
 * shared libraries, and `gctop -l` peaked at 7.3 MB where `top -b -n 1`
 * takes 5.2 MB (issue 40). A run that does not serve now maps none of
 * them. --serve dlopen()s each by its versioned soname (the ABI the headers
 * below describe; the -dev packages are still needed to build) and calls
 * it through the table gt_serve_libs, each pointer typed from the real
 * header's declaration, so a call is checked as a direct one would be.
 * The libraries are the system's own, loaded once and never closed: one
 * copy of each, its global state (GnuTLS's initialisation) as when linked.
 *
 * The table is filled before --serve's seccomp filter and before any thread
 * starts (frontends/serve_mode.c), as the dynamic linker used to. */
#ifndef GCTOP_FRONTENDS_SERVE_LIBS_H
#define GCTOP_FRONTENDS_SERVE_LIBS_H

#include <crypt.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <microhttpd.h>
#include <yaml.h>
#include <zlib.h>

#include "base/error.h"

/* Each library: its index, its soname and the Debian package that holds it
 * (named in the sentence when it is missing). */
#define GT_SERVE_LIBS(X)                                   \
	X(MHD, "libmicrohttpd.so.12", "libmicrohttpd12")   \
	X(GNUTLS, "libgnutls.so.30", "libgnutls30")         \
	X(YAML, "libyaml-0.so.2", "libyaml-0-2")            \
	X(CRYPT, "libcrypt.so.1", "libcrypt1")              \
	X(ZLIB, "libz.so.1", "zlib1g")

/* Each function gctop calls, with the library that has it. */
#define GT_SERVE_LIB_FUNCTIONS(F)                                  \
	F(MHD, MHD_add_response_header)                            \
	F(MHD, MHD_basic_auth_get_username_password)               \
	F(MHD, MHD_create_response_from_buffer)                    \
	F(MHD, MHD_create_response_from_buffer_with_free_callback_cls) \
	F(MHD, MHD_destroy_response)                               \
	F(MHD, MHD_free)                                           \
	F(MHD, MHD_get_connection_info)                            \
	F(MHD, MHD_get_daemon_info)                                \
	F(MHD, MHD_is_feature_supported)                           \
	F(MHD, MHD_lookup_connection_value)                        \
	F(MHD, MHD_queue_basic_auth_fail_response)                 \
	F(MHD, MHD_queue_response)                                 \
	F(MHD, MHD_resume_connection)                              \
	F(MHD, MHD_start_daemon)                                   \
	F(MHD, MHD_stop_daemon)                                    \
	F(MHD, MHD_suspend_connection)                             \
	F(GNUTLS, gnutls_certificate_allocate_credentials)         \
	F(GNUTLS, gnutls_certificate_free_credentials)             \
	F(GNUTLS, gnutls_certificate_get_peers)                    \
	F(GNUTLS, gnutls_certificate_set_x509_key_mem)             \
	F(GNUTLS, gnutls_certificate_set_x509_trust_mem)           \
	F(GNUTLS, gnutls_certificate_verify_peers2)                \
	F(GNUTLS, gnutls_hmac_fast)                                \
	F(GNUTLS, gnutls_strerror)                                 \
	F(YAML, yaml_event_delete)                                 \
	F(YAML, yaml_parser_delete)                                \
	F(YAML, yaml_parser_initialize)                            \
	F(YAML, yaml_parser_parse)                                 \
	F(YAML, yaml_parser_set_input_string)                      \
	F(CRYPT, crypt_checksalt)                                  \
	F(CRYPT, crypt_rn)                                         \
	F(ZLIB, deflateInit2_)                                     \
	F(ZLIB, deflate)                                           \
	F(ZLIB, deflateBound)                                      \
	F(ZLIB, deflateEnd)

struct gt_serve_libs {
#define GT_SERVE_LIB_POINTER(lib, name) __typeof__(name) *name;
	GT_SERVE_LIB_FUNCTIONS(GT_SERVE_LIB_POINTER)
#undef GT_SERVE_LIB_POINTER
};

/* Filled by gt_serve_libs_load; read only afterwards. */
extern struct gt_serve_libs gt_serve_libs;

/* Loads every library and fills the table (again: nothing to do). 0, or -1
 * with err (GT_EXIT_FAILURE) naming the missing library and its Debian
 * package. */
int gt_serve_libs_load(struct gt_error *err);

#endif
