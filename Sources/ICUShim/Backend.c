// The two ICU backends: the linked system libicu and Foundation's `swift_`-prefixed copy.
//
// Both expose the same stable C API, so one table of function pointers per backend lets every
// primitive in this shim run against either ICU without a second copy of the code.
#include "Backend.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define ICUSHIM_INIT_SYSTEM(name) .name = &name,

static const ICUShimBackend system_backend = {
  .prefix = "",
  ICUSHIM_FUNCTIONS(ICUSHIM_INIT_SYSTEM)
};

const ICUShimBackend *icushim_system_backend(void) { return &system_backend; }

static ICUShimBackend foundation_backend;
static const ICUShimBackend *foundation_result;
static char foundation_problem[256];
static pthread_once_t foundation_once = PTHREAD_ONCE_INIT;

static void *open_foundation_icu(void) {
  // Foundation has normally loaded it already; fall back to the loader's search path.
  void *library = dlopen("lib_FoundationICU.so", RTLD_NOW | RTLD_NOLOAD);
  if (library == NULL) library = dlopen("lib_FoundationICU.so", RTLD_NOW | RTLD_LOCAL);
  return library;
}

static void load_foundation_backend(void) {
  void *library = open_foundation_icu();
  if (library == NULL) {
    snprintf(foundation_problem, sizeof foundation_problem,
             "lib_FoundationICU.so is not loadable: %s", dlerror());
    return;
  }
  foundation_backend.prefix = "swift_";
  char symbol[128];
#define ICUSHIM_INIT_FOUNDATION(name)                                                  \
  snprintf(symbol, sizeof symbol, "swift_%s", #name);                                  \
  *(void **)&foundation_backend.name = dlsym(library, symbol);                         \
  if (foundation_backend.name == NULL) {                                                \
    snprintf(foundation_problem, sizeof foundation_problem,                            \
             "lib_FoundationICU.so lacks %s", symbol);                                  \
    return;                                                                              \
  }
  ICUSHIM_FUNCTIONS(ICUSHIM_INIT_FOUNDATION)
#undef ICUSHIM_INIT_FOUNDATION
  foundation_result = &foundation_backend;
}

const ICUShimBackend *icushim_foundation_backend(void) {
  pthread_once(&foundation_once, load_foundation_backend);
  return foundation_result;
}

const char *icushim_foundation_backend_problem(void) {
  pthread_once(&foundation_once, load_foundation_backend);
  return foundation_problem;
}

static _Atomic int64_t open_handles;

void icushim_handle_opened(void) { open_handles++; }
void icushim_handle_closed(void) { open_handles--; }
int64_t icushim_open_handle_count(void) { return open_handles; }

static void version_text(const UVersionInfo info, char *buffer, int32_t capacity) {
  snprintf(buffer, (size_t)capacity, "%u.%u.%u", info[0], info[1], info[2]);
}

void icushim_icu_version(const ICUShimBackend *b, char *buffer, int32_t capacity) {
  UVersionInfo info;
  b->u_getVersion(info);
  version_text(info, buffer, capacity);
}

void icushim_cldr_version(const ICUShimBackend *b, char *buffer, int32_t capacity,
                          int32_t *status) {
  UVersionInfo info = {0};
  b->ulocdata_getCLDRVersion(info, (UErrorCode *)status);
  snprintf(buffer, (size_t)capacity, "%u.%u", info[0], info[1]);
}

void icushim_tz_version(const ICUShimBackend *b, char *buffer, int32_t capacity,
                        int32_t *status) {
  const char *version = b->ucal_getTZDataVersion((UErrorCode *)status);
  snprintf(buffer, (size_t)capacity, "%s", version ? version : "");
}

const char *icushim_error_name(const ICUShimBackend *b, int32_t status) {
  return b->u_errorName((UErrorCode)status);
}

int32_t icushim_copy_out(const char *text, char *buffer, int32_t capacity) {
  int32_t length = (int32_t)strlen(text);
  if (length < capacity) memcpy(buffer, text, (size_t)length + 1);
  return length;
}

int32_t icushim_widen(const char *text, UChar *buffer, int32_t capacity) {
  int32_t length = 0;
  for (; text[length] != 0 && length < capacity; length++) {
    buffer[length] = (UChar)(unsigned char)text[length];
  }
  return length;
}
