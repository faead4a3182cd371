// Private to the shim: the function table of one ICU backend. Only .c files include this.
#pragma once
#include "ICUShim.h"

#include <pthread.h>
#include <unicode/ucal.h>
#include <unicode/udat.h>
#include <unicode/udatpg.h>
#include <unicode/uenum.h>
#include <unicode/uloc.h>
#include <unicode/ulocdata.h>
#include <unicode/uversion.h>
#include <unicode/utypes.h>

// Every ICU function the shim calls, once; X(name) expands for the struct and both fillers.
#define ICUSHIM_FUNCTIONS(X)                                                             \
  X(u_getVersion) X(u_errorName) X(ulocdata_getCLDRVersion) X(ucal_getTZDataVersion)    \
  X(uloc_countAvailable) X(uloc_getAvailable) X(uloc_forLanguageTag) X(uloc_getBaseName) \
  X(uloc_getKeywordValue) X(uloc_setKeywordValue) X(uloc_addLikelySubtags)                                        \
  X(ucal_openTimeZoneIDEnumeration) X(ucal_getCanonicalTimeZoneID) X(uenum_next)         \
  X(uenum_close)                                                                         \
  X(ucal_open) X(ucal_close) X(ucal_getType) X(ucal_getMillis) X(ucal_setMillis)        \
  X(ucal_get) X(ucal_set) X(ucal_clear) X(ucal_add) X(ucal_getAttribute)                \
  X(ucal_setAttribute) X(ucal_getFieldDifference) X(ucal_getTimeZoneTransitionDate)     \
  X(udat_open) X(udat_close) X(udat_format) X(udat_toPattern) X(udat_countSymbols)      \
  X(udat_getSymbols) X(udatpg_open) X(udatpg_close) X(udatpg_getBestPattern)

#define ICUSHIM_DECLARE(name) __typeof__(&name) name;

struct ICUShimBackend {
  const char *prefix;
  ICUSHIM_FUNCTIONS(ICUSHIM_DECLARE)
};

struct ICUShimCalendar {
  const ICUShimBackend *backend;
  UCalendar *calendar;
};

struct ICUShimDateFormat {
  const ICUShimBackend *backend;
  UDateFormat *format;
};

struct ICUShimPatternGenerator {
  const ICUShimBackend *backend;
  UDateTimePatternGenerator *generator;
};

void icushim_handle_opened(void);
void icushim_handle_closed(void);
/// Copies a C string out; returns its length (the caller retries when it is >= capacity).
int32_t icushim_copy_out(const char *text, char *buffer, int32_t capacity);
/// Widens an ASCII id (zone ids are ASCII) to UTF-16; returns the length written.
int32_t icushim_widen(const char *text, UChar *buffer, int32_t capacity);

/// Room for any zone id in UTF-16 (the longest tz ids are around 32 characters).
enum { ICUSHIM_ZONE_CAPACITY = 128 };
