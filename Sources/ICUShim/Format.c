// Date formats: patterns, styles, skeletons and symbol tables.
#include "Backend.h"

#include <stdlib.h>

static ICUShimDateFormat *wrap(const ICUShimBackend *b, UDateFormat *format, int32_t *status) {
  if (U_FAILURE(*status)) return NULL;
  ICUShimDateFormat *handle = malloc(sizeof *handle);
  if (handle == NULL) {
    b->udat_close(format);
    *status = U_MEMORY_ALLOCATION_ERROR;
    return NULL;
  }
  handle->backend = b;
  handle->format = format;
  icushim_handle_opened();
  return handle;
}

ICUShimDateFormat *icushim_format_open_pattern(const ICUShimBackend *b, const char *locale,
                                               const char *zone, const uint16_t *pattern,
                                               int32_t pattern_length, int32_t *status) {
  if (U_FAILURE(*status)) return NULL;
  UChar zone16[ICUSHIM_ZONE_CAPACITY];
  int32_t zone_length = icushim_widen(zone, zone16, ICUSHIM_ZONE_CAPACITY);
  UDateFormat *format = b->udat_open(UDAT_PATTERN, UDAT_PATTERN, locale, zone16, zone_length,
                                     pattern, pattern_length, (UErrorCode *)status);
  return wrap(b, format, status);
}

ICUShimDateFormat *icushim_format_open_style(const ICUShimBackend *b, const char *locale,
                                             const char *zone, int32_t date_style,
                                             int32_t *status) {
  if (U_FAILURE(*status)) return NULL;
  if (date_style < UDAT_FULL || date_style > UDAT_SHORT) {
    *status = U_ILLEGAL_ARGUMENT_ERROR;
    return NULL;
  }
  UChar zone16[ICUSHIM_ZONE_CAPACITY];
  int32_t zone_length = icushim_widen(zone, zone16, ICUSHIM_ZONE_CAPACITY);
  UDateFormat *format = b->udat_open(UDAT_NONE, (UDateFormatStyle)date_style, locale, zone16,
                                     zone_length, NULL, 0, (UErrorCode *)status);
  return wrap(b, format, status);
}

ICUShimPatternGenerator *icushim_pattern_generator_open(const ICUShimBackend *b,
                                                        const char *locale, int32_t *status) {
  if (U_FAILURE(*status)) return NULL;
  UDateTimePatternGenerator *generator = b->udatpg_open(locale, (UErrorCode *)status);
  if (U_FAILURE(*status)) return NULL;
  ICUShimPatternGenerator *handle = malloc(sizeof *handle);
  if (handle == NULL) {
    b->udatpg_close(generator);
    *status = U_MEMORY_ALLOCATION_ERROR;
    return NULL;
  }
  handle->backend = b;
  handle->generator = generator;
  icushim_handle_opened();
  return handle;
}

void icushim_pattern_generator_close(ICUShimPatternGenerator *handle) {
  if (handle == NULL) return;
  handle->backend->udatpg_close(handle->generator);
  free(handle);
  icushim_handle_closed();
}

int32_t icushim_best_pattern(ICUShimPatternGenerator *h, const uint16_t *skeleton,
                             int32_t skeleton_length, uint16_t *buffer, int32_t capacity,
                             int32_t *status) {
  if (U_FAILURE(*status)) return 0;
  return h->backend->udatpg_getBestPattern(h->generator, skeleton, skeleton_length, buffer,
                                           capacity, (UErrorCode *)status);
}

void icushim_format_close(ICUShimDateFormat *handle) {
  if (handle == NULL) return;
  handle->backend->udat_close(handle->format);
  free(handle);
  icushim_handle_closed();
}

int32_t icushim_format(ICUShimDateFormat *h, double millis, uint16_t *buffer, int32_t capacity,
                       int32_t *status) {
  return h->backend->udat_format(h->format, millis, buffer, capacity, NULL, (UErrorCode *)status);
}

int32_t icushim_format_pattern(ICUShimDateFormat *h, uint16_t *buffer, int32_t capacity,
                               int32_t *status) {
  return h->backend->udat_toPattern(h->format, 0, buffer, capacity, (UErrorCode *)status);
}

static UDateFormatSymbolType symbol_type(ICUShimSymbols family) {
  switch (family) {
    case ICUSHIM_SYMBOLS_STANDALONE_NARROW_WEEKDAYS: return UDAT_STANDALONE_NARROW_WEEKDAYS;
    case ICUSHIM_SYMBOLS_NARROW_WEEKDAYS: return UDAT_NARROW_WEEKDAYS;
    case ICUSHIM_SYMBOLS_STANDALONE_SHORT_WEEKDAYS: return UDAT_STANDALONE_SHORT_WEEKDAYS;
    case ICUSHIM_SYMBOLS_STANDALONE_MONTHS: return UDAT_STANDALONE_MONTHS;
    case ICUSHIM_SYMBOLS_MONTHS: return UDAT_MONTHS;
  }
  abort();
}

int32_t icushim_format_symbol_count(ICUShimDateFormat *h, ICUShimSymbols family) {
  return h->backend->udat_countSymbols(h->format, symbol_type(family));
}

int32_t icushim_format_symbol(ICUShimDateFormat *h, ICUShimSymbols family, int32_t index,
                              uint16_t *buffer, int32_t capacity, int32_t *status) {
  return h->backend->udat_getSymbols(h->format, symbol_type(family), index, buffer, capacity,
                                     (UErrorCode *)status);
}
