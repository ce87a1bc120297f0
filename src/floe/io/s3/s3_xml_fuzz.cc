// Fuzz target: arbitrary bytes as the XML body of an S3 response, taken apart the way s3_client.cc
// reads each kind: an error (Code, Message), a DeleteObjects result (Error elements), a
// ListObjectsV2 page (Contents with Key and Size, CommonPrefixes, IsTruncated,
// NextContinuationToken) and a CreateMultipartUpload result (UploadId); then every text found is
// escaped and decoded back. Parsing must end in values, never a crash or a sanitizer report; text
// escaped must decode to itself.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "floe/io/s3/s3_xml_internal.h"

namespace {

void RoundTrip(const std::string& text) {
  if (floe::io::s3_xml::Decode(floe::io::s3_xml::Escape(text)) == text) return;
  std::fprintf(stderr, "escaped text does not decode to itself: %s\n", text.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace xml = floe::io::s3_xml;
  std::string_view body(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> texts;
  texts.push_back(xml::Text(body, "Code"));
  texts.push_back(xml::Text(body, "Message"));
  for (std::string_view error : xml::Elements(body, "Error")) {
    texts.push_back(xml::Text(error, "Code"));
    texts.push_back(xml::Text(error, "Key"));
  }
  for (std::string_view contents : xml::Elements(body, "Contents")) {
    texts.push_back(xml::Text(contents, "Key"));
    texts.push_back(xml::Text(contents, "Size"));
  }
  for (std::string_view common : xml::Elements(body, "CommonPrefixes")) {
    texts.push_back(xml::Text(common, "Prefix"));
  }
  texts.push_back(xml::Text(body, "IsTruncated"));
  texts.push_back(xml::Text(body, "NextContinuationToken"));
  texts.push_back(xml::Text(body, "UploadId"));
  for (const std::string& text : texts) RoundTrip(text);
  return 0;
}
