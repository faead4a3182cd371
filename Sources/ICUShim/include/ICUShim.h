// ICUShim: the plain-C face of ICU for Swift.
//
// Swift modules that see Foundation cannot also see the system <unicode/*.h> (the
// declarations clash with Foundation's own ICU), so this header uses <stdint.h> types and
// opaque handles only. The same primitives run against two ICUs ("backends"): the system
// libicu the project links (the oracle) and, when present, the `swift_`-prefixed copy inside
// Foundation's lib_FoundationICU.so (used to tell data drift from logic defects).
//
// Conventions: `status` is an ICU UErrorCode (0 = success, negative = warning, positive =
// failure); a function does nothing when `*status` is already a failure. Instants are ICU
// UDate values: milliseconds since 1970-01-01T00:00:00Z as `double`. Text out is UTF-16;
// a function that fills a buffer returns the length it needs, so callers retry once.
#pragma once
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One ICU implementation: the system libicu, or Foundation's bundled copy.
typedef struct ICUShimBackend ICUShimBackend;
/// An open UCalendar of one backend.
typedef struct ICUShimCalendar ICUShimCalendar;
/// An open UDateFormat of one backend.
typedef struct ICUShimDateFormat ICUShimDateFormat;
/// An open UDateTimePatternGenerator of one backend (a locale's skeleton-to-pattern data).
typedef struct ICUShimPatternGenerator ICUShimPatternGenerator;

/// Calendar fields (mapped onto UCalendarDateFields inside the shim).
typedef enum ICUShimField {
  ICUSHIM_FIELD_ERA = 0,
  ICUSHIM_FIELD_YEAR,
  ICUSHIM_FIELD_MONTH,
  ICUSHIM_FIELD_DATE,
  ICUSHIM_FIELD_DAY_OF_WEEK,
  ICUSHIM_FIELD_DAY_OF_YEAR,
  ICUSHIM_FIELD_HOUR_OF_DAY,
  ICUSHIM_FIELD_MINUTE,
  ICUSHIM_FIELD_SECOND,
  ICUSHIM_FIELD_MILLISECOND,
  ICUSHIM_FIELD_ZONE_OFFSET,
  ICUSHIM_FIELD_DST_OFFSET,
  ICUSHIM_FIELD_EXTENDED_YEAR,
  ICUSHIM_FIELD_JULIAN_DAY,
  ICUSHIM_FIELD_MILLISECONDS_IN_DAY,
  ICUSHIM_FIELD_IS_LEAP_MONTH,
} ICUShimField;

/// Calendar attributes (mapped onto UCalendarAttribute).
typedef enum ICUShimAttribute {
  ICUSHIM_ATTRIBUTE_FIRST_DAY_OF_WEEK = 0,
  ICUSHIM_ATTRIBUTE_MINIMAL_DAYS_IN_FIRST_WEEK,
  ICUSHIM_ATTRIBUTE_REPEATED_WALL_TIME,
  ICUSHIM_ATTRIBUTE_SKIPPED_WALL_TIME,
} ICUShimAttribute;

/// Values of the wall-time attributes (same numbers as UCalendarWallTimeOption).
typedef enum ICUShimWallTime {
  ICUSHIM_WALLTIME_LAST = 0,
  ICUSHIM_WALLTIME_FIRST = 1,
  ICUSHIM_WALLTIME_NEXT_VALID = 2,
} ICUShimWallTime;

/// Directions for time-zone transition search (mapped onto UTimeZoneTransitionType).
typedef enum ICUShimTransition {
  ICUSHIM_TRANSITION_NEXT = 0,
  ICUSHIM_TRANSITION_NEXT_INCLUSIVE,
  ICUSHIM_TRANSITION_PREVIOUS,
  ICUSHIM_TRANSITION_PREVIOUS_INCLUSIVE,
} ICUShimTransition;

/// Date-format symbol families (mapped onto UDateFormatSymbolType).
typedef enum ICUShimSymbols {
  ICUSHIM_SYMBOLS_STANDALONE_NARROW_WEEKDAYS = 0,
  ICUSHIM_SYMBOLS_NARROW_WEEKDAYS,
  ICUSHIM_SYMBOLS_STANDALONE_SHORT_WEEKDAYS,
  ICUSHIM_SYMBOLS_STANDALONE_MONTHS,
  ICUSHIM_SYMBOLS_MONTHS,
} ICUShimSymbols;

/// Zone id sets (mapped onto USystemTimeZoneType).
typedef enum ICUShimZoneSet {
  ICUSHIM_ZONES_ANY = 0,
  ICUSHIM_ZONES_CANONICAL,
  ICUSHIM_ZONES_CANONICAL_LOCATION,
} ICUShimZoneSet;

// MARK: Backends

/// The system libicu this package links (never NULL).
const ICUShimBackend *icushim_system_backend(void);
/// Foundation's bundled ICU (`swift_` symbols of lib_FoundationICU.so), or NULL when it is not
/// loadable; then `icushim_foundation_backend_problem` says why.
const ICUShimBackend *icushim_foundation_backend(void);
/// Why the Foundation backend is unavailable (a missing library or symbol), or "" when it is.
const char *icushim_foundation_backend_problem(void);

/// Writes "major.minor.micro" of the backend's ICU into `buffer` (at least 32 bytes).
void icushim_icu_version(const ICUShimBackend *backend, char *buffer, int32_t capacity);
/// Writes the CLDR version of the backend's data ("42.0").
void icushim_cldr_version(const ICUShimBackend *backend, char *buffer, int32_t capacity,
                          int32_t *status);
/// Writes the tz data version of the backend's data ("2022e").
void icushim_tz_version(const ICUShimBackend *backend, char *buffer, int32_t capacity,
                        int32_t *status);
/// The symbolic name of an ICU status code ("U_ILLEGAL_ARGUMENT_ERROR").
const char *icushim_error_name(const ICUShimBackend *backend, int32_t status);
/// How many shim handles (calendars, formats) are open right now, over both backends.
int64_t icushim_open_handle_count(void);

// MARK: Locales and zones

/// NUL-separated ids of the backend's available locales; returns the bytes needed.
int32_t icushim_available_locales(const ICUShimBackend *backend, char *buffer, int32_t capacity);
/// NUL-separated system time-zone ids of one set; returns the bytes needed.
int32_t icushim_zone_ids(const ICUShimBackend *backend, ICUShimZoneSet set, char *buffer,
                         int32_t capacity, int32_t *status);
/// The canonical id of a zone id; `*is_system` tells whether ICU knows the id at all.
int32_t icushim_canonical_zone_id(const ICUShimBackend *backend, const char *zone, char *buffer,
                                  int32_t capacity, int8_t *is_system, int32_t *status);
/// uloc_forLanguageTag: a BCP 47 tag ("en-US-u-fw-mon") as an ICU locale id.
int32_t icushim_locale_for_language_tag(const ICUShimBackend *backend, const char *tag,
                                        char *buffer, int32_t capacity, int32_t *status);
/// uloc_getBaseName: language, script and region without keywords.
int32_t icushim_locale_base_name(const ICUShimBackend *backend, const char *locale, char *buffer,
                                 int32_t capacity, int32_t *status);
/// uloc_addLikelySubtags: `zh_CN` becomes `zh_Hans_CN`, `uz_AF` becomes `uz_Arab_AF`.
int32_t icushim_locale_maximized(const ICUShimBackend *backend, const char *locale, char *buffer,
                                 int32_t capacity, int32_t *status);
/// uloc_getKeywordValue; returns 0 and an empty string when the keyword is absent.
int32_t icushim_locale_keyword(const ICUShimBackend *backend, const char *locale,
                               const char *keyword, char *buffer, int32_t capacity,
                               int32_t *status);
/// uloc_setKeywordValue on a copy of `locale` written to `buffer`.
int32_t icushim_locale_with_keyword(const ICUShimBackend *backend, const char *locale,
                                    const char *keyword, const char *value, char *buffer,
                                    int32_t capacity, int32_t *status);

// MARK: Calendars

/// Opens a calendar for a locale id (its `calendar` keyword picks the system) and a zone id.
ICUShimCalendar *icushim_calendar_open(const ICUShimBackend *backend, const char *locale,
                                       const char *zone, int32_t *status);
/// Closes a calendar handle; NULL is ignored.
void icushim_calendar_close(ICUShimCalendar *calendar);
/// ucal_getType: the calendar system actually opened ("gregorian" when a keyword was ignored).
int32_t icushim_calendar_type(ICUShimCalendar *calendar, char *buffer, int32_t capacity,
                              int32_t *status);
double icushim_calendar_millis(ICUShimCalendar *calendar, int32_t *status);
void icushim_calendar_set_millis(ICUShimCalendar *calendar, double millis, int32_t *status);
int32_t icushim_calendar_get(ICUShimCalendar *calendar, ICUShimField field, int32_t *status);
void icushim_calendar_set(ICUShimCalendar *calendar, ICUShimField field, int32_t value);
void icushim_calendar_clear(ICUShimCalendar *calendar);
void icushim_calendar_add(ICUShimCalendar *calendar, ICUShimField field, int32_t amount,
                          int32_t *status);
int32_t icushim_calendar_attribute(ICUShimCalendar *calendar, ICUShimAttribute attribute);
void icushim_calendar_set_attribute(ICUShimCalendar *calendar, ICUShimAttribute attribute,
                                    int32_t value);
/// ucal_getFieldDifference: moves the calendar towards `target` and returns the difference.
int32_t icushim_calendar_field_difference(ICUShimCalendar *calendar, double target,
                                          ICUShimField field, int32_t *status);
/// The nearest zone transition from the calendar's instant; returns 0 when there is none.
int8_t icushim_calendar_transition(ICUShimCalendar *calendar, ICUShimTransition direction,
                                   double *millis, int32_t *status);

// MARK: Date formats and symbols

/// Opens a date format with an explicit pattern (UTF-16) for a locale and zone.
ICUShimDateFormat *icushim_format_open_pattern(const ICUShimBackend *backend, const char *locale,
                                               const char *zone, const uint16_t *pattern,
                                               int32_t pattern_length, int32_t *status);
/// Opens a date format with one of ICU's date styles (0 full, 1 long, 2 medium, 3 short) and
/// no time.
ICUShimDateFormat *icushim_format_open_style(const ICUShimBackend *backend, const char *locale,
                                             const char *zone, int32_t date_style,
                                             int32_t *status);
/// Opens a locale's pattern generator (udatpg_open; its calendar keyword picks the patterns).
ICUShimPatternGenerator *icushim_pattern_generator_open(const ICUShimBackend *backend,
                                                        const char *locale, int32_t *status);
/// Closes a pattern generator; NULL is ignored.
void icushim_pattern_generator_close(ICUShimPatternGenerator *generator);
/// The best pattern for a skeleton (udatpg_getBestPattern) as UTF-16; returns the length needed.
int32_t icushim_best_pattern(ICUShimPatternGenerator *generator, const uint16_t *skeleton,
                             int32_t skeleton_length, uint16_t *buffer, int32_t capacity,
                             int32_t *status);
void icushim_format_close(ICUShimDateFormat *format);
/// Formats an instant as UTF-16; returns the length needed.
int32_t icushim_format(ICUShimDateFormat *format, double millis, uint16_t *buffer,
                       int32_t capacity, int32_t *status);
/// The format's pattern as UTF-16; returns the length needed.
int32_t icushim_format_pattern(ICUShimDateFormat *format, uint16_t *buffer, int32_t capacity,
                               int32_t *status);
/// How many symbols of a family the format has (weekdays: 8, index 0 unused).
int32_t icushim_format_symbol_count(ICUShimDateFormat *format, ICUShimSymbols family);
/// One symbol as UTF-16; returns the length needed.
int32_t icushim_format_symbol(ICUShimDateFormat *format, ICUShimSymbols family, int32_t index,
                              uint16_t *buffer, int32_t capacity, int32_t *status);

#ifdef __cplusplus
}
#endif
