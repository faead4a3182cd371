/// The checks this build knows, in report order.
package enum CheckCatalog {
  package static let all: [any Check] = [
    LeadingBlanksCheck(), WeekdaySymbolsCheck(), SameDayClosingCheck(), RangeRolesCheck(),
    MonthDaysCheck(), MonthGridCheck(), MonthPagingCheck(), StayNightsCheck(), ReturnClampCheck(), DateTextCheck(),
    FieldRoundtripCheck(),
    DisclosureCheck(), CalendarInvariantsCheck(),
  ]

  package static func check(_ id: String) -> (any Check)? { all.first { $0.id == id } }
}
