#pragma once

// application/x-www-form-urlencoded escaping of UTF-8 text, byte for byte what java.net.URLEncoder
// writes with UTF-8: letters, digits and ".-*_" stay, a space becomes '+', every other byte
// becomes %XX (uppercase hex). Iceberg Java escapes partition path names and values this way, so
// floe must too for its files to land where other engines put them.

#include <optional>
#include <string>
#include <string_view>

namespace floe {

std::string UrlEncodeForm(std::string_view text);

// The inverse, as java.net.URLDecoder reads it: '+' is a space and %XX (either case) a byte. A '%'
// not followed by two hex digits is kept as it is when keep_malformed, else makes the result
// nullopt. The bytes are not checked to be UTF-8.
std::optional<std::string> UrlDecodeForm(std::string_view text, bool keep_malformed);

// RFC 3986 percent-encoding, as URLs and AWS signatures want it: letters, digits and "-._~" stay,
// '/' stays when keep_slash (object keys in a path), every other byte becomes %XX (uppercase).
std::string PercentEncode(std::string_view text, bool keep_slash);

}  // namespace floe
