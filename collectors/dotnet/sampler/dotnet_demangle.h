/* C# compiler-generated names in source form, for method names from the
 * runtime's method events: a local function "<<Main>$>g__Slow|0_0" of
 * "Program" is "Program.<Main>$.Slow", a lambda "<Run>b__0_1" of
 * "Worker+<>c" is "Worker.Run.<lambda_0_1>", an async method's
 * "Worker+<Fetch>d__4" MoveNext is "Worker.Fetch". Pure: names come from
 * the target, so every length is bounded and an unexpected shape is kept
 * as it is. */
#ifndef GCTOP_COLLECTORS_DOTNET_DEMANGLE_H
#define GCTOP_COLLECTORS_DOTNET_DEMANGLE_H

#include <stddef.h>

/* type: the method's type as the runtime names it ("Ns.Outer+Nested",
 * generic arguments in brackets); method: its name. Writes
 * "Ns.Outer.Nested.Method" in source form into out (len > 0), truncated. */
void gt_dn_demangle(const char *type, const char *method, char *out, size_t len);

#endif
