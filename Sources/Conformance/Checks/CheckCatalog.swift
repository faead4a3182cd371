/// The checks this build knows, in report order.
public enum CheckCatalog {
  public static let all: [any Check] = [
    LeadingBlanksCheck(), WeekdaySymbolsCheck(), SameDayClosingCheck(), RangeRolesCheck(),
    MonthDaysCheck(), MonthGridCheck(), MonthPagingCheck(), StayNightsCheck(), ReturnClampCheck(), DateTextCheck(),
    FieldRoundtripCheck(),
    DisclosureCheck(), CalendarInvariantsCheck(),
  ]

  public static func check(_ id: String) -> (any Check)? { all.first { $0.id == id } }
}
