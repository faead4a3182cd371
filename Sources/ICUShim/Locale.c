// Locale and zone catalogues: what a backend knows, and the id manipulations the oracle needs.
#include "Backend.h"

#include <string.h>

int32_t icushim_available_locales(const ICUShimBackend *b, char *buffer, int32_t capacity) {
  int32_t count = b->uloc_countAvailable();
  int32_t needed = 0;
  for (int32_t i = 0; i < count; i++) {
    const char *id = b->uloc_getAvailable(i);
    int32_t length = (int32_t)strlen(id) + 1;
    if (needed + length <= capacity) memcpy(buffer + needed, id, (size_t)length);
    needed += length;
  }
  return needed;
}

static USystemTimeZoneType zone_type(ICUShimZoneSet set) {
  switch (set) {
    case ICUSHIM_ZONES_ANY: return UCAL_ZONE_TYPE_ANY;
    case ICUSHIM_ZONES_CANONICAL: return UCAL_ZONE_TYPE_CANONICAL;
    case ICUSHIM_ZONES_CANONICAL_LOCATION: return UCAL_ZONE_TYPE_CANONICAL_LOCATION;
  }
  return UCAL_ZONE_TYPE_ANY;
}

int32_t icushim_zone_ids(const ICUShimBackend *b, ICUShimZoneSet set, char *buffer,
                         int32_t capacity, int32_t *status) {
  if (U_FAILURE(*status)) return 0;
  UEnumeration *ids = b->ucal_openTimeZoneIDEnumeration(zone_type(set), NULL, NULL,
                                                        (UErrorCode *)status);
  if (U_FAILURE(*status)) return 0;
  int32_t needed = 0;
  const char *id;
  int32_t length;
  while ((id = b->uenum_next(ids, &length, (UErrorCode *)status)) != NULL) {
    if (needed + length + 1 <= capacity) memcpy(buffer + needed, id, (size_t)length + 1);
    needed += length + 1;
  }
  b->uenum_close(ids);
  return needed;
}

int32_t icushim_canonical_zone_id(const ICUShimBackend *b, const char *zone, char *buffer,
                                  int32_t capacity, int8_t *is_system, int32_t *status) {
  if (U_FAILURE(*status)) return 0;
  UChar zone16[ICUSHIM_ZONE_CAPACITY];
  UChar canonical16[ICUSHIM_ZONE_CAPACITY];
  int32_t length = icushim_widen(zone, zone16, ICUSHIM_ZONE_CAPACITY);
  UBool system = 0;
  int32_t canonical_length = b->ucal_getCanonicalTimeZoneID(
      zone16, length, canonical16, ICUSHIM_ZONE_CAPACITY, &system, (UErrorCode *)status);
  *is_system = (int8_t)system;
  if (U_FAILURE(*status)) return 0;
  for (int32_t i = 0; i < canonical_length && i < capacity; i++) buffer[i] = (char)canonical16[i];
  if (canonical_length < capacity) buffer[canonical_length] = 0;
  return canonical_length;
}

int32_t icushim_locale_for_language_tag(const ICUShimBackend *b, const char *tag, char *buffer,
                                        int32_t capacity, int32_t *status) {
  int32_t parsed = 0;
  int32_t length = b->uloc_forLanguageTag(tag, buffer, capacity, &parsed, (UErrorCode *)status);
  // A tag ICU could not read to the end is malformed, whatever ICU produced from its prefix.
  if (U_SUCCESS(*status) && parsed != (int32_t)strlen(tag)) *status = U_ILLEGAL_ARGUMENT_ERROR;
  return length;
}

int32_t icushim_locale_base_name(const ICUShimBackend *b, const char *locale, char *buffer,
                                 int32_t capacity, int32_t *status) {
  return b->uloc_getBaseName(locale, buffer, capacity, (UErrorCode *)status);
}

int32_t icushim_locale_maximized(const ICUShimBackend *b, const char *locale, char *buffer,
                                 int32_t capacity, int32_t *status) {
  return b->uloc_addLikelySubtags(locale, buffer, capacity, (UErrorCode *)status);
}

int32_t icushim_locale_keyword(const ICUShimBackend *b, const char *locale, const char *keyword,
                               char *buffer, int32_t capacity, int32_t *status) {
  return b->uloc_getKeywordValue(locale, keyword, buffer, capacity, (UErrorCode *)status);
}

int32_t icushim_locale_with_keyword(const ICUShimBackend *b, const char *locale,
                                    const char *keyword, const char *value, char *buffer,
                                    int32_t capacity, int32_t *status) {
  int32_t length = (int32_t)strlen(locale);
  if (length >= capacity) return length + (int32_t)strlen(keyword) + (int32_t)strlen(value) + 2;
  memcpy(buffer, locale, (size_t)length + 1);
  return b->uloc_setKeywordValue(keyword, value, buffer, capacity, (UErrorCode *)status);
}
