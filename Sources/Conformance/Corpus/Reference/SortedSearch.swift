extension RandomAccessCollection where Element: Comparable, Index == Int {
  /// The position of the last element not after `value` in this sorted collection, or `nil`
  /// when every element is after it: the range or month that may hold `value` in a table of
  /// starts (a binary search; the reference's tables are searched once a case).
  func lastPosition(notAfter value: Element) -> Int? {
    var (low, high) = (startIndex, endIndex)
    while low < high {
      let middle = low + (high - low) / 2
      if self[middle] <= value { low = middle + 1 } else { high = middle }
    }
    return low > startIndex ? low - 1 : nil
  }
}
