/// Counts as every surface writes them: the page, the console, JUnit and the tab's title.
enum CountText {
  /// An integer with thousands separators (1,234,567).
  static func number(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var grouped = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
      grouped.append(digit)
    }
    return (value < 0 ? "-" : "") + grouped
  }

  /// A count and its noun, plural unless it is one: "1 group", "17,000 groups".
  static func counted(_ value: Int, _ noun: String, plural: String? = nil) -> String {
    number(value) + " " + (value == 1 ? noun : plural ?? noun + "s")
  }
}
