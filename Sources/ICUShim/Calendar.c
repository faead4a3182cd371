// Calendar primitives: open, fields, arithmetic, wall-time policies, zone transitions.
#include "Backend.h"

#include <stdlib.h>

static UCalendarDateFields ucal_field(ICUShimField field) {
  switch (field) {
    case ICUSHIM_FIELD_ERA: return UCAL_ERA;
    case ICUSHIM_FIELD_YEAR: return UCAL_YEAR;
    case ICUSHIM_FIELD_MONTH: return UCAL_MONTH;
    case ICUSHIM_FIELD_DATE: return UCAL_DATE;
    case ICUSHIM_FIELD_DAY_OF_WEEK: return UCAL_DAY_OF_WEEK;
    case ICUSHIM_FIELD_DAY_OF_YEAR: return UCAL_DAY_OF_YEAR;
    case ICUSHIM_FIELD_HOUR_OF_DAY: return UCAL_HOUR_OF_DAY;
    case ICUSHIM_FIELD_MINUTE: return UCAL_MINUTE;
    case ICUSHIM_FIELD_SECOND: return UCAL_SECOND;
    case ICUSHIM_FIELD_MILLISECOND: return UCAL_MILLISECOND;
    case ICUSHIM_FIELD_ZONE_OFFSET: return UCAL_ZONE_OFFSET;
    case ICUSHIM_FIELD_DST_OFFSET: return UCAL_DST_OFFSET;
    case ICUSHIM_FIELD_EXTENDED_YEAR: return UCAL_EXTENDED_YEAR;
    case ICUSHIM_FIELD_JULIAN_DAY: return UCAL_JULIAN_DAY;
    case ICUSHIM_FIELD_MILLISECONDS_IN_DAY: return UCAL_MILLISECONDS_IN_DAY;
    case ICUSHIM_FIELD_IS_LEAP_MONTH: return UCAL_IS_LEAP_MONTH;
  }
  abort();  // A value outside the enum is a bug of the Swift wrapper, not user input.
}

static UCalendarAttribute ucal_attribute(ICUShimAttribute attribute) {
  switch (attribute) {
    case ICUSHIM_ATTRIBUTE_FIRST_DAY_OF_WEEK: return UCAL_FIRST_DAY_OF_WEEK;
    case ICUSHIM_ATTRIBUTE_MINIMAL_DAYS_IN_FIRST_WEEK: return UCAL_MINIMAL_DAYS_IN_FIRST_WEEK;
    case ICUSHIM_ATTRIBUTE_REPEATED_WALL_TIME: return UCAL_REPEATED_WALL_TIME;
    case ICUSHIM_ATTRIBUTE_SKIPPED_WALL_TIME: return UCAL_SKIPPED_WALL_TIME;
  }
  abort();
}

static UTimeZoneTransitionType transition_type(ICUShimTransition direction) {
  switch (direction) {
    case ICUSHIM_TRANSITION_NEXT: return UCAL_TZ_TRANSITION_NEXT;
    case ICUSHIM_TRANSITION_NEXT_INCLUSIVE: return UCAL_TZ_TRANSITION_NEXT_INCLUSIVE;
    case ICUSHIM_TRANSITION_PREVIOUS: return UCAL_TZ_TRANSITION_PREVIOUS;
    case ICUSHIM_TRANSITION_PREVIOUS_INCLUSIVE: return UCAL_TZ_TRANSITION_PREVIOUS_INCLUSIVE;
  }
  abort();
}

ICUShimCalendar *icushim_calendar_open(const ICUShimBackend *b, const char *locale,
                                       const char *zone, int32_t *status) {
  if (U_FAILURE(*status)) return NULL;
  UChar zone16[ICUSHIM_ZONE_CAPACITY];
  int32_t length = icushim_widen(zone, zone16, ICUSHIM_ZONE_CAPACITY);
  UCalendar *calendar = b->ucal_open(zone16, length, locale, UCAL_DEFAULT, (UErrorCode *)status);
  if (U_FAILURE(*status)) return NULL;
  ICUShimCalendar *handle = malloc(sizeof *handle);
  if (handle == NULL) {
    b->ucal_close(calendar);
    *status = U_MEMORY_ALLOCATION_ERROR;
    return NULL;
  }
  handle->backend = b;
  handle->calendar = calendar;
  icushim_handle_opened();
  return handle;
}

void icushim_calendar_close(ICUShimCalendar *handle) {
  if (handle == NULL) return;
  handle->backend->ucal_close(handle->calendar);
  free(handle);
  icushim_handle_closed();
}

int32_t icushim_calendar_type(ICUShimCalendar *h, char *buffer, int32_t capacity,
                              int32_t *status) {
  const char *type = h->backend->ucal_getType(h->calendar, (UErrorCode *)status);
  return icushim_copy_out(type ? type : "", buffer, capacity);
}

double icushim_calendar_millis(ICUShimCalendar *h, int32_t *status) {
  return h->backend->ucal_getMillis(h->calendar, (UErrorCode *)status);
}

void icushim_calendar_set_millis(ICUShimCalendar *h, double millis, int32_t *status) {
  h->backend->ucal_setMillis(h->calendar, millis, (UErrorCode *)status);
}

int32_t icushim_calendar_get(ICUShimCalendar *h, ICUShimField field, int32_t *status) {
  return h->backend->ucal_get(h->calendar, ucal_field(field), (UErrorCode *)status);
}

void icushim_calendar_set(ICUShimCalendar *h, ICUShimField field, int32_t value) {
  h->backend->ucal_set(h->calendar, ucal_field(field), value);
}

void icushim_calendar_clear(ICUShimCalendar *h) { h->backend->ucal_clear(h->calendar); }

void icushim_calendar_add(ICUShimCalendar *h, ICUShimField field, int32_t amount,
                          int32_t *status) {
  h->backend->ucal_add(h->calendar, ucal_field(field), amount, (UErrorCode *)status);
}

int32_t icushim_calendar_attribute(ICUShimCalendar *h, ICUShimAttribute attribute) {
  return h->backend->ucal_getAttribute(h->calendar, ucal_attribute(attribute));
}

void icushim_calendar_set_attribute(ICUShimCalendar *h, ICUShimAttribute attribute,
                                    int32_t value) {
  h->backend->ucal_setAttribute(h->calendar, ucal_attribute(attribute), value);
}

int32_t icushim_calendar_field_difference(ICUShimCalendar *h, double target, ICUShimField field,
                                          int32_t *status) {
  return h->backend->ucal_getFieldDifference(h->calendar, target, ucal_field(field),
                                             (UErrorCode *)status);
}

int8_t icushim_calendar_transition(ICUShimCalendar *h, ICUShimTransition direction,
                                   double *millis, int32_t *status) {
  return h->backend->ucal_getTimeZoneTransitionDate(h->calendar, transition_type(direction),
                                                    millis, (UErrorCode *)status);
}
