import Foundation
import PickerLogic

/// A deliberately wrong subject: the seeds' logic with one plausible mistake, which the
/// harness must catch (`conformance self-test`).
package struct Mutant: Sendable {
  package var name: String
  /// The subject's functions it changes: only the checks that call one can catch it, so its
  /// run sweeps only those.
  package var changes: Set<Subject.Function>
  /// The mistake, in a sentence.
  package var mistake: String
  package var make: @Sendable (Subject) -> Subject

  /// The mistakes issue 6 lists, each a one-function change of the real subject.
  package static let all: [Mutant] = [
    Mutant(name: "blanks-ignore-first-weekday", changes: [.leadingBlanks],
           mistake: "leading blanks counted from Sunday whatever firstWeekday says") { base in
      var subject = base
      subject.leadingBlanks = .init { month, calendar in
        guard let first = calendar.dateInterval(of: .month, for: month)?.start else { return 0 }
        return calendar.component(.weekday, from: first) - 1
      }
      return subject
    },
    Mutant(name: "symbols-not-rotated", changes: [.weekdaySymbols],
           mistake: "weekday symbols left Sunday first") { base in
      var subject = base
      subject.weekdaySymbols = .init { $0.veryShortStandaloneWeekdaySymbols }
      return subject
    },
    Mutant(name: "format-context-symbols", changes: [.weekdaySymbols],
           mistake: "format-context narrow symbols instead of standalone ones") { base in
      var subject = base
      subject.weekdaySymbols = .init { calendar in
        let symbols = calendar.veryShortWeekdaySymbols
        let offset = min(max(calendar.firstWeekday - 1, 0), symbols.count)
        return Array(symbols[offset...] + symbols[..<offset])
      }
      return subject
    },
    Mutant(name: "days-by-86400-seconds", changes: [.days],
           mistake: "a month's day cells made by adding 86 400 s to its first instant") { base in
      var subject = base
      subject.days = .init { month, calendar in
        guard let first = calendar.dateInterval(of: .month, for: month)?.start,
          let range = calendar.range(of: .day, in: .month, for: month)
        else { return [] }
        return range.map { first.addingTimeInterval(Double($0 - range.lowerBound) * 86_400) }
      }
      return subject
    },
    Mutant(name: "role-without-start-of-day", changes: [.role],
           mistake: "role(of:) compares instants instead of days") { base in
      var subject = base
      subject.role = .init { day, selection, _ in
        guard let start = selection.start else { return .outside }
        guard let end = selection.end, end != start else { return day == start ? .single : .outside }
        let (lower, upper) = (min(start, end), max(start, end))
        if day == lower { return .start }
        if day == upper { return .end }
        return day > lower && day < upper ? .middle : .outside
      }
      return subject
    },
    Mutant(name: "closes-on-24-hours", changes: [.closes],
           mistake: "the picker closes when 24 hours have passed, not on another day") { base in
      var subject = base
      subject.closes = .init { old, new, _ in abs(new.timeIntervalSince(old)) >= 86_400 }
      return subject
    },
    Mutant(name: "end-before-start-kept", changes: [.selecting],
           mistake: "a tap before the start becomes the end instead of a new start") { base in
      var subject = base
      subject.selecting = .init { day, selection, calendar in
        let day = calendar.startOfDay(for: day)
        guard let start = selection.start.map(calendar.startOfDay(for:)), selection.end == nil else {
          return .init(start: day, end: nil)
        }
        return .init(start: start, end: day)
      }
      return subject
    },
    Mutant(name: "paging-by-30-days", changes: [.paging],
           mistake: "the month buttons move 30 days") { base in
      var subject = base
      subject.paging = .init { month, offset, _ in month.addingTimeInterval(Double(offset * 30) * 86_400) }
      return subject
    },
    // Seconds over 86 400 rounded down is the seed's own count (a night short after a
    // short day): rounded up, a 25-hour day counts two nights.
    Mutant(name: "nights-rounded-up", changes: [.nights],
           mistake: "nights counted as seconds between the days over 86 400, rounded up") { base in
      var subject = base
      subject.nights = .init { start, end, _ in Int((end.timeIntervalSince(start) / 86_400).rounded(.up)) }
      return subject
    },
    // The two below were swallowed by waivers written for other defects
    // (`seed-days-in-month-assumes-contiguous-days`, `foundation-paging-onto-skipped-day`)
    // until those waivers stated their scope: they are caught as new failures against the
    // real subject's run.
    Mutant(name: "days-by-24-hours-dst-corrected", changes: [.days],
           mistake: "each day cell is the one before plus 24 hours, corrected by the offset change: right across a change at 02:00, a day early where midnight is skipped") { base in
      var subject = base
      subject.days = .init { month, calendar in
        guard let first = calendar.dateInterval(of: .month, for: month)?.start,
          let range = calendar.range(of: .day, in: .month, for: month)
        else { return [] }
        let zone = calendar.timeZone
        var cells = [first]
        while cells.count < range.count {
          let previous = cells[cells.count - 1]
          let next = previous.addingTimeInterval(86_400)
          cells.append(next.addingTimeInterval(
            -Double(zone.secondsFromGMT(for: next) - zone.secondsFromGMT(for: previous))))
        }
        return cells
      }
      return subject
    },
    Mutant(name: "hebrew-paging-by-month-number", changes: [.paging],
           mistake: "Hebrew month buttons step the month number (Adar I is month 6 in every year: in a common year, back from Adar lands on Adar)") { base in
      var subject = base
      subject.paging = .init { month, offset, calendar in
        guard calendar.identifier == .hebrew else { return base.paging(month, offset, calendar) }
        // Tishri is 1 and Elul 13 in every year; the year turns between them.
        var parts = calendar.dateComponents([.era, .year, .month], from: month)
        let number = (parts.month ?? 1) + offset
        parts.month = number > 13 ? 1 : number < 1 ? 13 : number
        parts.year = (parts.year ?? 0) + (number > 13 ? 1 : number < 1 ? -1 : 0)
        return calendar.date(from: parts)
      }
      return subject
    },
    Mutant(name: "grid-drops-last-week-unless-sunday-first", changes: [.days],
           mistake: "the day cells stop before the grid's last week when the week does not start on Sunday") { base in
      var subject = base
      subject.days = .init { month, calendar in
        let cells = base.days(month, calendar)
        guard calendar.firstWeekday != 1 else { return cells }
        let blanks = base.leadingBlanks(month, calendar)
        let weeks = (blanks + cells.count + 6) / 7
        return Array(cells.prefix(max(0, (weeks - 1) * 7 - blanks)))
      }
      return subject
    },
    Mutant(name: "hebrew-common-adar-as-adar-i", changes: [.text],
           mistake: "in a Hebrew common year, Adar is named Adar I (a leap year's name for month 6)") { base in
      var subject = base
      subject.text = .init { kind, date, calendar, locale in
        let text = base.text(kind, date, calendar, locale)
        let parts = calendar.dateComponents([.year, .month], from: date)
        // A Hebrew year is leap when (7 × year + 1) mod 19 < 7; Foundation numbers Adar 7.
        guard calendar.identifier == .hebrew, parts.month == 7, let year = parts.year,
          (7 * year + 1) % 19 >= 7
        else { return text }
        var named = calendar
        named.locale = locale
        let symbols = named.monthSymbols
        guard symbols.count > 6 else { return text }
        return text.replacingOccurrences(of: symbols[6], with: symbols[5])
      }
      return subject
    },
    Mutant(name: "week-year-in-field", changes: [.text],
           mistake: "the text field written with YYYY (week year) instead of yyyy") { base in
      var subject = base
      subject.text = .init { kind, date, calendar, locale in
        guard kind == .field || kind == .fieldISO else { return base.text(kind, date, calendar, locale) }
        return DateTexts.fieldText(date, calendar: calendar, locale: locale, pattern: "YYYY-MM-dd")
      }
      return subject
    },
    Mutant(name: "field-read-in-utc", changes: [.fieldDate],
           mistake: "the field read back by a formatter left in UTC, not the zone that wrote it") { base in
      var subject = base
      subject.fieldDate = .init { text, calendar, locale in
        DateTexts.fieldDate(text, calendar: calendar, locale: locale, zone: TimeZone(identifier: "UTC"))
      }
      return subject
    },
  ]
}
