// String functions, LIKE and ||, with Flink's semantics: positions and lengths count characters
// (UTF-8 code points), not bytes; CONCAT and || are null when any argument is, CONCAT_WS skips
// null arguments; UPPER, LOWER and INITCAP change ASCII letters only.

#include <fmt/core.h>

#include <regex>

#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/cast_internal.h"
#include "floe/sql/scalar/functions_internal.h"
#include "floe/sql/scalar/like.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/rows_internal.h"
#include "floe/sql/scalar/type_rules.h"
#include "floe/util/uuid.h"

namespace floe::sql::scalar {
namespace {

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

int64_t CharCount(std::string_view s) {
  int64_t count = 0;
  for (char c : s) count += !IsContinuation(c);
  return count;
}

// The byte offset of character `index` (0-based; clamped to the end).
size_t ByteOffset(std::string_view s, int64_t index) {
  size_t pos = 0;
  for (int64_t k = 0; k < index && pos < s.size(); ++k) {
    ++pos;
    while (pos < s.size() && IsContinuation(s[pos])) ++pos;
  }
  return pos;
}

// Characters [start, end) of s (0-based, clamped).
std::string_view CharRange(std::string_view s, int64_t start, int64_t end) {
  if (end <= start) return {};
  const size_t begin = ByteOffset(s, start);
  const size_t stop = begin + ByteOffset(s.substr(begin), end - start);
  return s.substr(begin, stop - begin);
}

char AsciiUpperChar(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c; }
char AsciiLowerChar(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

// ---- LIKE ----

// A LIKE pattern as literal runs and wildcards; '_' matches one character, '%' any run.
struct LikePattern {
  enum class Kind { kEquals, kPrefix, kSuffix, kContains, kGeneral };
  Kind kind = Kind::kGeneral;
  std::string literal;  // kEquals, kPrefix, kSuffix, kContains
  std::string tokens;   // kGeneral: the pattern with escapes resolved; wild marks wildcards
  std::vector<bool> wild;
};

Result<LikePattern> CompileLike(std::string_view pattern, std::optional<char> escape) {
  LikePattern out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (escape && c == *escape) {
      if (i + 1 >= pattern.size() ||
          (pattern[i + 1] != '%' && pattern[i + 1] != '_' && pattern[i + 1] != *escape)) {
        return InvalidArgument("invalid escape sequence in LIKE pattern '{}'", pattern);
      }
      out.tokens += pattern[++i];
      out.wild.push_back(false);
      continue;
    }
    out.tokens += c;
    out.wild.push_back(c == '%' || c == '_');
  }
  // Classify: literal runs with '%' only at the ends have fast paths.
  size_t wild_count = 0;
  bool has_underscore = false;
  for (size_t i = 0; i < out.tokens.size(); ++i) {
    if (out.wild[i]) {
      ++wild_count;
      has_underscore |= out.tokens[i] == '_';
    }
  }
  const size_t n = out.tokens.size();
  const bool lead = n > 0 && out.wild[0] && out.tokens[0] == '%';
  const bool trail = n > 1 && out.wild[n - 1] && out.tokens[n - 1] == '%';
  if (!has_underscore && wild_count == 0) {
    out.kind = LikePattern::Kind::kEquals;
    out.literal = out.tokens;
  } else if (!has_underscore && wild_count == 1 && trail) {
    out.kind = LikePattern::Kind::kPrefix;
    out.literal = out.tokens.substr(0, n - 1);
  } else if (!has_underscore && wild_count == 1 && lead) {
    out.kind = LikePattern::Kind::kSuffix;
    out.literal = out.tokens.substr(1);
  } else if (!has_underscore && wild_count == 2 && lead && trail) {
    out.kind = LikePattern::Kind::kContains;
    out.literal = out.tokens.substr(1, n - 2);
  }
  return out;
}

// Wildcard matching with backtracking to the last '%' (linear in practice).
bool MatchGeneral(const LikePattern& p, std::string_view s) {
  size_t pi = 0, si = 0;
  size_t star = std::string::npos, star_s = 0;
  const size_t pn = p.tokens.size();
  while (si < s.size()) {
    if (pi < pn && p.wild[pi] && p.tokens[pi] == '%') {
      star = pi++;
      star_s = si;
    } else if (pi < pn && p.wild[pi]) {  // '_': one whole character
      ++pi;
      ++si;
      while (si < s.size() && IsContinuation(s[si])) ++si;
    } else if (pi < pn && p.tokens[pi] == s[si]) {
      ++pi;
      ++si;
    } else if (star != std::string::npos) {
      pi = star + 1;
      ++star_s;
      while (star_s < s.size() && IsContinuation(s[star_s])) ++star_s;
      si = star_s;
    } else {
      return false;
    }
  }
  while (pi < pn && p.wild[pi] && p.tokens[pi] == '%') ++pi;
  return pi == pn;
}

bool MatchLike(const LikePattern& p, std::string_view s) {
  switch (p.kind) {
    case LikePattern::Kind::kEquals:
      return s == p.literal;
    case LikePattern::Kind::kPrefix:
      return s.starts_with(p.literal);
    case LikePattern::Kind::kSuffix:
      return s.ends_with(p.literal);
    case LikePattern::Kind::kContains:
      return s.find(p.literal) != std::string_view::npos;
    case LikePattern::Kind::kGeneral:
      return MatchGeneral(p, s);
  }
  return false;
}

Result<std::optional<char>> EscapeOf(const std::optional<Value>& value, const Expr& expr) {
  if (!value || value->is_null()) return std::optional<char>();
  const std::string& text = value->get<std::string>();
  if (text.size() != 1) {
    return std::unexpected(
        ErrorAt(expr, fmt::format("the ESCAPE of LIKE must be one character, not '{}'", text)));
  }
  return std::optional<char>(text[0]);
}

// ---- function binders ----

using Args = std::vector<ScalarExprPtr>;

Result<Args> StringArgs(const Expr& call, Args args) {
  for (size_t k = 0; k < args.size(); ++k) {
    FLOE_ASSIGN_OR_RETURN(args[k], StringArg(call, std::move(args[k]), static_cast<int>(k)));
  }
  return args;
}

// A strict string -> string function of its first argument (and more string arguments).
template <typename Row>
Result<ScalarExprPtr> StringCall(const Expr& call, Args args, Row row) {
  FLOE_ASSIGN_OR_RETURN(args, StringArgs(call, std::move(args)));
  const bool nullable = AnyNullable(args);
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), nullable, TextOf(call),
                  [row](std::span<const Array> a, int64_t n) {
                    return MapStrings(a, n,
                                      [&](int64_t i, std::string& out) { return row(a, i, out); });
                  });
}

Result<ScalarExprPtr> BindUpper(const Expr& call, Args args) {
  return StringCall(call, std::move(args),
                    [](std::span<const Array> a, int64_t i, std::string& out) {
                      for (char c : a[0].GetView(i)) out += AsciiUpperChar(c);
                      return true;
                    });
}

Result<ScalarExprPtr> BindLower(const Expr& call, Args args) {
  return StringCall(call, std::move(args),
                    [](std::span<const Array> a, int64_t i, std::string& out) {
                      for (char c : a[0].GetView(i)) out += AsciiLowerChar(c);
                      return true;
                    });
}

Result<ScalarExprPtr> BindInitCap(const Expr& call, Args args) {
  return StringCall(
      call, std::move(args), [](std::span<const Array> a, int64_t i, std::string& out) {
        bool word_start = true;
        for (char c : a[0].GetView(i)) {
          const bool alnum = std::isalnum(static_cast<unsigned char>(c)) != 0;
          out += word_start ? AsciiUpperChar(c) : AsciiLowerChar(c);
          word_start = !alnum && !IsContinuation(c) && static_cast<unsigned char>(c) < 0x80;
        }
        return true;
      });
}

Result<ScalarExprPtr> BindReverse(const Expr& call, Args args) {
  return StringCall(call, std::move(args),
                    [](std::span<const Array> a, int64_t i, std::string& out) {
                      std::string_view s = a[0].GetView(i);
                      size_t end = s.size();
                      while (end > 0) {
                        size_t begin = end - 1;
                        while (begin > 0 && IsContinuation(s[begin])) --begin;
                        out.append(s.substr(begin, end - begin));
                        end = begin;
                      }
                      return true;
                    });
}

template <bool kLeft, bool kRight>
Result<ScalarExprPtr> BindTrim(const Expr& call, Args args) {
  return StringCall(
      call, std::move(args), [](std::span<const Array> a, int64_t i, std::string& out) {
        std::string_view s = a[0].GetView(i);
        const std::string_view chars = a.size() > 1 ? a[1].GetView(i) : std::string_view(" ");
        if (kLeft) {
          while (!s.empty() && chars.find(s.front()) != std::string_view::npos) s.remove_prefix(1);
        }
        if (kRight) {
          while (!s.empty() && chars.find(s.back()) != std::string_view::npos) s.remove_suffix(1);
        }
        out.assign(s);
        return true;
      });
}

Result<ScalarExprPtr> BindConcat(const Expr& call, Args args) {
  return StringCall(call, std::move(args),
                    [](std::span<const Array> a, int64_t i, std::string& out) {
                      for (const Array& arg : a) out.append(arg.GetView(i));
                      return true;
                    });
}

Result<ScalarExprPtr> BindConcatWs(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args, StringArgs(call, std::move(args)));
  const bool nullable = args[0]->nullable();
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), nullable, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    // Only the separator makes the result null; null strings are skipped.
                    return MapStrings(a.first(1), n, [&](int64_t i, std::string& out) {
                      bool first = true;
                      for (size_t k = 1; k < a.size(); ++k) {
                        if (a[k].IsNull(i)) continue;
                        if (!first) out.append(a[0].GetView(i));
                        out.append(a[k].GetView(i));
                        first = false;
                      }
                      return true;
                    });
                  });
}

Result<ScalarExprPtr> BindReplace(const Expr& call, Args args) {
  return StringCall(
      call, std::move(args), [](std::span<const Array> a, int64_t i, std::string& out) {
        std::string_view s = a[0].GetView(i), from = a[1].GetView(i), to = a[2].GetView(i);
        if (from.empty()) {
          out.assign(s);
          return true;
        }
        size_t pos = 0;
        for (size_t hit; (hit = s.find(from, pos)) != std::string_view::npos;
             pos = hit + from.size()) {
          out.append(s.substr(pos, hit - pos));
          out.append(to);
        }
        out.append(s.substr(pos));
        return true;
      });
}

Result<ScalarExprPtr> BindCharLength(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args, StringArgs(call, std::move(args)));
  const bool nullable = AnyNullable(args);
  return MakeCall(NodeKind::kCall, std::move(args), DataType::Int32(), nullable, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    return MapFixed<int32_t>(a, DataType::Int32(), n, [&](int64_t i, int32_t& out) {
                      out = static_cast<int32_t>(CharCount(a[0].GetView(i)));
                      return true;
                    });
                  });
}

Result<ScalarExprPtr> BindPosition(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args, StringArgs(call, std::move(args)));
  const bool nullable = AnyNullable(args);
  return MakeCall(NodeKind::kCall, std::move(args), DataType::Int32(), nullable, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    return MapFixed<int32_t>(a, DataType::Int32(), n, [&](int64_t i, int32_t& out) {
                      std::string_view needle = a[0].GetView(i), haystack = a[1].GetView(i);
                      const size_t hit = haystack.find(needle);
                      out = hit == std::string_view::npos
                                ? 0
                                : static_cast<int32_t>(CharCount(haystack.substr(0, hit)) + 1);
                      return true;
                    });
                  });
}

// Flink's SUBSTRING (BinaryStringDataUtil.substringSQL): a position of 0 counts as 1, a negative
// one counts from the end; a negative length gives ''.
Result<ScalarExprPtr> BindSubstring(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], StringArg(call, std::move(args[0]), 0));
  for (size_t k = 1; k < args.size(); ++k) {
    FLOE_ASSIGN_OR_RETURN(args[k], IntegerArg(call, std::move(args[k]), static_cast<int>(k)));
  }
  const bool nullable = AnyNullable(args);
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), nullable, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    return MapStrings(a, n, [&](int64_t i, std::string& out) {
                      std::string_view s = a[0].GetView(i);
                      const int64_t length = CharCount(s);
                      const int64_t pos = a[1].Value<int64_t>(i);
                      int64_t start = pos > 0 ? pos - 1 : pos < 0 ? length + pos : 0;
                      int64_t end = a.size() > 2 ? start + a[2].Value<int64_t>(i) : length;
                      start = std::max<int64_t>(start, 0);
                      end = std::min(end, length);
                      out.assign(CharRange(s, start, end));
                      return true;
                    });
                  });
}

// Flink's LPAD/RPAD: a string longer than the length is cut to it; a negative length or an empty
// pad gives null.
template <bool kLeft>
Result<ScalarExprPtr> BindPad(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], StringArg(call, std::move(args[0]), 0));
  FLOE_ASSIGN_OR_RETURN(args[1], IntegerArg(call, std::move(args[1]), 1));
  FLOE_ASSIGN_OR_RETURN(args[2], StringArg(call, std::move(args[2]), 2));
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), true, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    return MapStrings(a, n, [&](int64_t i, std::string& out) {
                      std::string_view s = a[0].GetView(i), pad = a[2].GetView(i);
                      const int64_t target = a[1].Value<int64_t>(i);
                      if (target < 0 || pad.empty()) return false;
                      const int64_t length = CharCount(s);
                      if (length >= target) {
                        out.assign(CharRange(s, 0, target));
                        return true;
                      }
                      std::string fill;
                      const int64_t pad_chars = CharCount(pad);
                      for (int64_t missing = target - length; missing > 0; missing -= pad_chars) {
                        fill.append(CharRange(pad, 0, std::min(missing, pad_chars)));
                      }
                      out = kLeft ? fill + std::string(s) : std::string(s) + fill;
                      return true;
                    });
                  });
}

// Flink's SPLIT_INDEX: the zero-based index-th piece of s split at the delimiter, null when
// the index is negative or beyond the pieces.
Result<ScalarExprPtr> BindSplitIndex(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], StringArg(call, std::move(args[0]), 0));
  FLOE_ASSIGN_OR_RETURN(args[1], StringArg(call, std::move(args[1]), 1));
  FLOE_ASSIGN_OR_RETURN(args[2], IntegerArg(call, std::move(args[2]), 2));
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), true, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    return MapStrings(a, n, [&](int64_t i, std::string& out) {
                      std::string_view s = a[0].GetView(i), delimiter = a[1].GetView(i);
                      int64_t index = a[2].Value<int64_t>(i);
                      if (index < 0) return false;
                      if (delimiter.empty()) {
                        if (index != 0) return false;
                        out.assign(s);
                        return true;
                      }
                      size_t pos = 0;
                      for (; index > 0; --index) {
                        const size_t hit = s.find(delimiter, pos);
                        if (hit == std::string_view::npos) return false;
                        pos = hit + delimiter.size();
                      }
                      const size_t end = s.find(delimiter, pos);
                      out.assign(s.substr(pos, end == std::string_view::npos ? end : end - pos));
                      return true;
                    });
                  });
}

// Regular expressions (std::regex, ECMAScript syntax, close to Java's for common patterns). A
// constant pattern is compiled once; a bad one is an error naming it.
class RegexCache {
 public:
  Result<const std::regex*> Get(std::string_view pattern, std::string_view what) {
    if (!regex_ || pattern != pattern_) {
      try {
        regex_.emplace(std::string(pattern), std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        regex_.reset();
        return InvalidArgument("{}: invalid regular expression '{}': {}", what, pattern, e.what());
      }
      pattern_ = pattern;
    }
    return &*regex_;
  }

 private:
  std::string pattern_;
  std::optional<std::regex> regex_;
};

Result<ScalarExprPtr> BindRegexpReplace(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args, StringArgs(call, std::move(args)));
  const bool nullable = AnyNullable(args);
  const std::string what = AtPosition(call.position, TextOf(call));
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), nullable, TextOf(call),
                  [what](std::span<const Array> a, int64_t n) -> Result<Array> {
                    RegexCache cache;
                    Status failed = Ok();
                    Result<Array> out = MapStrings(a, n, [&](int64_t i, std::string& out) {
                      Result<const std::regex*> regex = cache.Get(a[1].GetView(i), what);
                      if (!regex) {
                        if (failed) failed = std::unexpected(regex.error());
                        return false;
                      }
                      std::string_view s = a[0].GetView(i);
                      out =
                          std::regex_replace(std::string(s), **regex, std::string(a[2].GetView(i)));
                      return true;
                    });
                    FLOE_RETURN_IF_ERROR(failed);
                    return out;
                  });
}

// Flink's REGEXP_EXTRACT: group `index` (0: the whole match, the default) of the first match,
// null when nothing matches or the group does not exist.
Result<ScalarExprPtr> BindRegexpExtract(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], StringArg(call, std::move(args[0]), 0));
  FLOE_ASSIGN_OR_RETURN(args[1], StringArg(call, std::move(args[1]), 1));
  if (args.size() > 2) {
    FLOE_ASSIGN_OR_RETURN(args[2], IntegerArg(call, std::move(args[2]), 2));
  }
  const std::string what = AtPosition(call.position, TextOf(call));
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), true, TextOf(call),
                  [what](std::span<const Array> a, int64_t n) -> Result<Array> {
                    RegexCache cache;
                    Status failed = Ok();
                    Result<Array> out = MapStrings(a, n, [&](int64_t i, std::string& out) {
                      Result<const std::regex*> regex = cache.Get(a[1].GetView(i), what);
                      if (!regex) {
                        if (failed) failed = std::unexpected(regex.error());
                        return false;
                      }
                      const int64_t group = a.size() > 2 ? a[2].Value<int64_t>(i) : 0;
                      std::string_view s = a[0].GetView(i);
                      std::match_results<std::string_view::const_iterator> match;
                      if (!std::regex_search(s.begin(), s.end(), match, **regex)) return false;
                      if (group < 0 || group >= static_cast<int64_t>(match.size())) return false;
                      if (!match[group].matched) return false;
                      out.assign(match[group].first, match[group].second);
                      return true;
                    });
                    FLOE_RETURN_IF_ERROR(failed);
                    return out;
                  });
}

// REGEXP(s, pattern): whether any part of s matches the pattern.
Result<ScalarExprPtr> BindRegexp(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args, StringArgs(call, std::move(args)));
  const bool nullable = AnyNullable(args);
  const std::string what = AtPosition(call.position, TextOf(call));
  return MakeCall(NodeKind::kCall, std::move(args), DataType::Bool(), nullable, TextOf(call),
                  [what](std::span<const Array> a, int64_t n) -> Result<Array> {
                    RegexCache cache;
                    Status failed = Ok();
                    Result<Array> out = MapBools(a, n, [&](int64_t i, bool& out) {
                      Result<const std::regex*> regex = cache.Get(a[1].GetView(i), what);
                      if (!regex) {
                        if (failed) failed = std::unexpected(regex.error());
                        return false;
                      }
                      std::string_view s = a[0].GetView(i);
                      out = std::regex_search(s.begin(), s.end(), **regex);
                      return true;
                    });
                    FLOE_RETURN_IF_ERROR(failed);
                    return out;
                  });
}

// REPEAT(s, n): s n times, '' for n <= 0.
Result<ScalarExprPtr> BindRepeat(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], StringArg(call, std::move(args[0]), 0));
  FLOE_ASSIGN_OR_RETURN(args[1], IntegerArg(call, std::move(args[1]), 1));
  const bool nullable = AnyNullable(args);
  const std::string what = AtPosition(call.position, TextOf(call));
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), nullable, TextOf(call),
                  [what](std::span<const Array> a, int64_t n) -> Result<Array> {
                    Status failed = Ok();
                    Result<Array> out = MapStrings(a, n, [&](int64_t i, std::string& out) {
                      std::string_view s = a[0].GetView(i);
                      const int64_t times = a[1].Value<int64_t>(i);
                      if (times > 0 && s.size() * static_cast<uint64_t>(times) > (1u << 30)) {
                        if (failed) failed = InvalidArgument("{}: the result is over 1 GiB", what);
                        return false;
                      }
                      for (int64_t k = 0; k < times; ++k) out.append(s);
                      return true;
                    });
                    FLOE_RETURN_IF_ERROR(failed);
                    return out;
                  });
}

// LEFT(s, n) / RIGHT(s, n): the first / last n characters, '' for a negative n.
template <bool kLeft>
Result<ScalarExprPtr> BindLeftRight(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], StringArg(call, std::move(args[0]), 0));
  FLOE_ASSIGN_OR_RETURN(args[1], IntegerArg(call, std::move(args[1]), 1));
  const bool nullable = AnyNullable(args);
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), nullable, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    return MapStrings(a, n, [&](int64_t i, std::string& out) {
                      std::string_view s = a[0].GetView(i);
                      const int64_t count = std::max<int64_t>(0, a[1].Value<int64_t>(i));
                      const int64_t length = CharCount(s);
                      out.assign(kLeft
                                     ? CharRange(s, 0, count)
                                     : CharRange(s, std::max<int64_t>(0, length - count), length));
                      return true;
                    });
                  });
}

// The 1-based character position of needle in haystack at or after character `from` (1-based),
// 0 when it is not there or from < 1.
int32_t FindFrom(std::string_view needle, std::string_view haystack, int64_t from) {
  if (from < 1) return 0;
  const size_t start = ByteOffset(haystack, from - 1);
  if (start == haystack.size() && from - 1 > CharCount(haystack)) return 0;
  const size_t hit = haystack.find(needle, start);
  return hit == std::string_view::npos
             ? 0
             : static_cast<int32_t>(CharCount(haystack.substr(0, hit)) + 1);
}

// LOCATE(needle, haystack [, from]) and INSTR(haystack, needle).
template <bool kInstr>
Result<ScalarExprPtr> BindLocate(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], StringArg(call, std::move(args[0]), 0));
  FLOE_ASSIGN_OR_RETURN(args[1], StringArg(call, std::move(args[1]), 1));
  if (args.size() > 2) {
    FLOE_ASSIGN_OR_RETURN(args[2], IntegerArg(call, std::move(args[2]), 2));
  }
  const bool nullable = AnyNullable(args);
  return MakeCall(NodeKind::kCall, std::move(args), DataType::Int32(), nullable, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    return MapFixed<int32_t>(a, DataType::Int32(), n, [&](int64_t i, int32_t& out) {
                      const int64_t from = a.size() > 2 ? a[2].Value<int64_t>(i) : 1;
                      out = kInstr ? FindFrom(a[1].GetView(i), a[0].GetView(i), from)
                                   : FindFrom(a[0].GetView(i), a[1].GetView(i), from);
                      return true;
                    });
                  });
}

// ASCII(s): the code of the first character (0 for ''); CHR(n): the character of code n,
// taken modulo 255 above 255 as Flink's documentation says, null for a negative n.
Result<ScalarExprPtr> BindAscii(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], StringArg(call, std::move(args[0]), 0));
  const bool nullable = args[0]->nullable();
  return MakeCall(NodeKind::kCall, std::move(args), DataType::Int32(), nullable, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    return MapFixed<int32_t>(a, DataType::Int32(), n, [&](int64_t i, int32_t& out) {
                      std::string_view s = a[0].GetView(i);
                      out = s.empty() ? 0 : static_cast<unsigned char>(s[0]);
                      return true;
                    });
                  });
}

void AppendCodePoint(uint32_t c, std::string& out) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

Result<ScalarExprPtr> BindChr(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], IntegerArg(call, std::move(args[0]), 0));
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), true, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    return MapStrings(a, n, [&](int64_t i, std::string& out) {
                      int64_t code = a[0].Value<int64_t>(i);
                      if (code < 0) return false;
                      if (code > 255) code %= 255;
                      AppendCodePoint(static_cast<uint32_t>(code), out);
                      return true;
                    });
                  });
}

Result<ScalarExprPtr> BindUuid(const Expr& call, Args) {
  return MakeCall(NodeKind::kCall, {}, DataType::String(), false, TextOf(call),
                  [](std::span<const Array>, int64_t n) {
                    return MapStrings({}, n, [&](int64_t, std::string& out) {
                      out = RandomUuid();
                      return true;
                    });
                  },
                  {.deterministic = false});
}

constexpr FunctionDef kStringFunctions[] = {
    {"UPPER", 1, 1, BindUpper},
    {"LOWER", 1, 1, BindLower},
    {"INITCAP", 1, 1, BindInitCap},
    {"REVERSE", 1, 1, BindReverse},
    {"TRIM", 1, 2, BindTrim<true, true>},
    {"LTRIM", 1, 2, BindTrim<true, false>},
    {"RTRIM", 1, 2, BindTrim<false, true>},
    {"CONCAT", 1, -1, BindConcat},
    {"CONCAT_WS", 2, -1, BindConcatWs},
    {"REPLACE", 3, 3, BindReplace},
    {"CHAR_LENGTH", 1, 1, BindCharLength},
    {"CHARACTER_LENGTH", 1, 1, BindCharLength},
    {"POSITION", 2, 2, BindPosition},
    {"SUBSTRING", 2, 3, BindSubstring},
    {"SUBSTR", 2, 3, BindSubstring},
    {"LPAD", 3, 3, BindPad<true>},
    {"RPAD", 3, 3, BindPad<false>},
    {"SPLIT_INDEX", 3, 3, BindSplitIndex},
    {"REGEXP_REPLACE", 3, 3, BindRegexpReplace},
    {"REGEXP_EXTRACT", 2, 3, BindRegexpExtract},
    {"REGEXP", 2, 2, BindRegexp},
    {"REPEAT", 2, 2, BindRepeat},
    {"LEFT", 2, 2, BindLeftRight<true>},
    {"RIGHT", 2, 2, BindLeftRight<false>},
    {"LOCATE", 2, 3, BindLocate<false>},
    {"INSTR", 2, 2, BindLocate<true>},
    {"ASCII", 1, 1, BindAscii},
    {"CHR", 1, 1, BindChr},
    {"UUID", 0, 0, BindUuid},
};

}  // namespace

std::span<const FunctionDef> StringFunctions() { return kStringFunctions; }

Result<ScalarExprPtr> BindConcatOperator(const Expr& expr, const Scope& scope) {
  FLOE_ASSIGN_OR_RETURN(Args args, BindAll(expr.args, scope));
  for (size_t k = 0; k < args.size(); ++k) {
    // Flink's || takes character strings; other values are written as CAST(x AS STRING) would.
    if (!IsString(*args[k]->type()) && !IsNullType(*args[k]->type())) {
      FLOE_ASSIGN_OR_RETURN(args[k], Coerce(std::move(args[k]), DataType::String()));
    }
  }
  Expr call;
  call.name = {"||"};
  call.position = expr.position;
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr concat, BindConcat(call, std::move(args)));
  // Keep the operator's own text.
  const Node& node = AsNode(*concat);
  if (node.kind() == NodeKind::kLiteral)
    return MakeLiteral(*concat->constant(), concat->type(), TextOf(expr));
  return MakeCall(NodeKind::kCall, node.children(), concat->type(), concat->nullable(),
                  TextOf(expr), [](std::span<const Array> a, int64_t n) {
                    return MapStrings(a, n, [&](int64_t i, std::string& out) {
                      for (const Array& arg : a) out.append(arg.GetView(i));
                      return true;
                    });
                  });
}

Result<ScalarExprPtr> BindLike(const Expr& expr, const Scope& scope) {
  FLOE_ASSIGN_OR_RETURN(Args args, BindAll(expr.args, scope));
  for (size_t k = 0; k < args.size(); ++k) {
    if (!IsString(*args[k]->type()) && !IsNullType(*args[k]->type())) {
      return std::unexpected(ErrorAt(
          expr, fmt::format("LIKE needs STRING operands, not {}", SqlTypeName(*args[k]->type()))));
    }
    FLOE_ASSIGN_OR_RETURN(args[k], Coerce(std::move(args[k]), DataType::String()));
  }
  const bool negated = expr.negated;
  const std::string text = TextOf(expr);
  const bool nullable = AnyNullable(args);
  std::optional<char> escape;
  if (args.size() > 2) {
    if (!args[2]->constant()) {
      return std::unexpected(ErrorAt(expr, "the ESCAPE of LIKE must be a constant"));
    }
    FLOE_ASSIGN_OR_RETURN(escape, EscapeOf(args[2]->constant(), expr));
    args.pop_back();
  }
  std::optional<Value> pattern = args[1]->constant();
  if (pattern && !pattern->is_null()) {
    Result<LikePattern> compiled = CompileLike(pattern->get<std::string>(), escape);
    if (!compiled) return std::unexpected(ErrorAt(expr, compiled.error().message()));
    auto match = [compiled = *compiled, negated](std::span<const Array> a, int64_t n) {
      return MapBools(a.first(1), n, [&](int64_t i, bool& out) {
        out = MatchLike(compiled, a[0].GetView(i)) != negated;
        return true;
      });
    };
    if (compiled->kind == LikePattern::Kind::kPrefix) {
      // Pushed down to Iceberg as starts_with (pushdown.cc).
      ScalarExprPtr prefix =
          MakeLiteral(compiled->literal, DataType::String(), "'" + compiled->literal + "'");
      return MakeCall(negated ? NodeKind::kNotStartsWith : NodeKind::kStartsWith,
                      {args[0], std::move(prefix)}, DataType::Bool(), nullable, text, match);
    }
    return MakeCall(NodeKind::kCall, std::move(args), DataType::Bool(), nullable, text, match);
  }
  const std::string what = AtPosition(expr.position, text);
  return MakeCall(NodeKind::kCall, std::move(args), DataType::Bool(), nullable, text,
                  [escape, negated, what](std::span<const Array> a, int64_t n) -> Result<Array> {
                    Status failed = Ok();
                    Result<Array> out = MapBools(a, n, [&](int64_t i, bool& out) {
                      Result<LikePattern> p = CompileLike(a[1].GetView(i), escape);
                      if (!p) {
                        if (failed) failed = std::unexpected(p.error().AddContext(what));
                        return false;
                      }
                      out = MatchLike(*p, a[0].GetView(i)) != negated;
                      return true;
                    });
                    FLOE_RETURN_IF_ERROR(failed);
                    return out;
                  });
}

Result<bool> MatchesLike(std::string_view value, std::string_view pattern) {
  FLOE_ASSIGN_OR_RETURN(LikePattern compiled, CompileLike(pattern, std::nullopt));
  return MatchLike(compiled, value);
}

}  // namespace floe::sql::scalar
