#pragma once

// The little XML that S3 answers with: the text of elements found by tag name, in order. S3's
// responses are flat, generated documents (no attributes that matter, no CDATA, no comments), so
// a scan for <Tag>...</Tag> is exact for them; entities are decoded.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace floe::io::s3_xml {

// The raw (undecoded) contents of every <tag>...</tag> in xml, in document order.
std::vector<std::string_view> Elements(std::string_view xml, std::string_view tag);

// The decoded text of the first <tag> element, or "" when there is none.
std::string Text(std::string_view xml, std::string_view tag);

// &amp; &lt; &gt; &quot; &apos; and numeric references decoded.
std::string Decode(std::string_view text);

// Text with & < > " ' escaped, for request bodies.
std::string Escape(std::string_view text);

// Milliseconds since the epoch of an ISO-8601 UTC time as S3 writes LastModified
// ("2026-12-02T09:00:00.000Z", the fraction optional); 0 when it is not one.
int64_t IsoMillis(std::string_view text);

}  // namespace floe::io::s3_xml
