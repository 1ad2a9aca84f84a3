/* cupti_demangle.cu - kernel names as people write them: CUPTI and the runtime give the
 * mangled symbol; the store keeps the name without its parameter list. C++ for the
 * demangler (abi::__cxa_demangle); the entry point is extern "C". */
#include <cxxabi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupti_dm.h"

extern "C" void cupti_kernel_name(const char *symbol, char *buf, size_t n)
{
    int status = -1;
    char *plain = symbol ? abi::__cxa_demangle(symbol, NULL, NULL, &status) : NULL;
    const char *name = status == 0 && plain ? plain : symbol ? symbol : "?";
    /* Cut at the parameter list (the first '(' outside template brackets), after the
     * return type a template's name carries ("void f<int>(int)": the last space outside
     * brackets). */
    size_t len = 0, start = 0;
    for (int depth = 0; name[len]; len++) {
        if (name[len] == '<')
            depth++;
        else if (name[len] == '>' && depth > 0)
            depth--;
        else if (name[len] == ' ' && depth == 0)
            start = len + 1;
        else if (name[len] == '(' && depth == 0 && len > 0)
            break;
    }
    if (start >= len)
        start = 0;
    snprintf(buf, n, "%.*s", (int)(len - start), name + start);
    free(plain);
}
