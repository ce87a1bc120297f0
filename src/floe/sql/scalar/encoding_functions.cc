// Hashes and encodings with Flink's semantics: MD5, SHA1, SHA224 ... SHA512 and SHA2(s, bits)
// give lower-case hex digests of the string's UTF-8 bytes; TO_BASE64 / FROM_BASE64 use the
// standard alphabet with padding (bad input to FROM_BASE64 is an error, as Java's decoder throws);
// HEX and BIN write integers as Java's Long.toHexString / toBinaryString do (64-bit two's
// complement for negative values), HEX upper case, and HEX of a string its bytes.

#include <fmt/core.h>
#include <openssl/evp.h>

#include <array>

#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/cast_internal.h"
#include "floe/sql/scalar/functions_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/rows_internal.h"
#include "floe/sql/scalar/type_rules.h"

namespace floe::sql::scalar {
namespace {

using Args = std::vector<ScalarExprPtr>;

constexpr char kHexLower[] = "0123456789abcdef";
constexpr char kHexUpper[] = "0123456789ABCDEF";

void AppendDigest(const EVP_MD* md, std::string_view bytes, std::string& out) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &length, md, nullptr);
  for (unsigned int k = 0; k < length; ++k) {
    out += kHexLower[digest[k] >> 4];
    out += kHexLower[digest[k] & 15];
  }
}

const EVP_MD* ShaOfBits(int64_t bits) {
  switch (bits) {
    case 224:
      return EVP_sha224();
    case 256:
      return EVP_sha256();
    case 384:
      return EVP_sha384();
    case 512:
      return EVP_sha512();
    default:
      return nullptr;
  }
}

Result<ScalarExprPtr> DigestCall(const Expr& call, Args args, const EVP_MD* (*md)()) {
  FLOE_ASSIGN_OR_RETURN(args[0], StringArg(call, std::move(args[0]), 0));
  const bool nullable = args[0]->nullable();
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), nullable, TextOf(call),
                  [md](std::span<const Array> a, int64_t n) {
                    const EVP_MD* digest = md();
                    return MapStrings(a, n, [&](int64_t i, std::string& out) {
                      AppendDigest(digest, a[0].GetView(i), out);
                      return true;
                    });
                  });
}

Result<ScalarExprPtr> BindMd5(const Expr& call, Args args) {
  return DigestCall(call, std::move(args), EVP_md5);
}
Result<ScalarExprPtr> BindSha1(const Expr& call, Args args) {
  return DigestCall(call, std::move(args), EVP_sha1);
}
Result<ScalarExprPtr> BindSha224(const Expr& call, Args args) {
  return DigestCall(call, std::move(args), EVP_sha224);
}
Result<ScalarExprPtr> BindSha256(const Expr& call, Args args) {
  return DigestCall(call, std::move(args), EVP_sha256);
}
Result<ScalarExprPtr> BindSha384(const Expr& call, Args args) {
  return DigestCall(call, std::move(args), EVP_sha384);
}
Result<ScalarExprPtr> BindSha512(const Expr& call, Args args) {
  return DigestCall(call, std::move(args), EVP_sha512);
}

Result<ScalarExprPtr> BindSha2(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], StringArg(call, std::move(args[0]), 0));
  FLOE_ASSIGN_OR_RETURN(args[1], IntegerArg(call, std::move(args[1]), 1));
  const bool nullable = AnyNullable(args);
  const std::string what = AtPosition(call.position, TextOf(call));
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), nullable, TextOf(call),
                  [what](std::span<const Array> a, int64_t n) -> Result<Array> {
                    Status failed = Ok();
                    Result<Array> out = MapStrings(a, n, [&](int64_t i, std::string& out) {
                      const int64_t bits = a[1].Value<int64_t>(i);
                      const EVP_MD* md = ShaOfBits(bits);
                      if (!md) {
                        if (failed) {
                          failed = InvalidArgument(
                              "{}: the hash length must be 224, 256, 384 or 512, not {}", what,
                              bits);
                        }
                        return false;
                      }
                      AppendDigest(md, a[0].GetView(i), out);
                      return true;
                    });
                    FLOE_RETURN_IF_ERROR(failed);
                    return out;
                  });
}

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void AppendBase64(std::string_view bytes, std::string& out) {
  size_t k = 0;
  auto byte = [&](size_t at) {
    return static_cast<uint32_t>(static_cast<unsigned char>(bytes[at]));
  };
  for (; k + 3 <= bytes.size(); k += 3) {
    const uint32_t v = byte(k) << 16 | byte(k + 1) << 8 | byte(k + 2);
    for (int shift = 18; shift >= 0; shift -= 6) out += kBase64[(v >> shift) & 63];
  }
  const size_t rest = bytes.size() - k;
  if (rest == 0) return;
  const uint32_t v = byte(k) << 16 | (rest == 2 ? byte(k + 1) << 8 : 0);
  out += kBase64[(v >> 18) & 63];
  out += kBase64[(v >> 12) & 63];
  out += rest == 2 ? kBase64[(v >> 6) & 63] : '=';
  out += '=';
}

int Base64Digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Decodes standard base64; padding is optional, as for Java's decoder, but must be whole when
// present. False when the text is not base64.
bool DecodeBase64(std::string_view text, std::string& out) {
  size_t pad = 0;
  while (pad < 2 && !text.empty() && text.back() == '=') {
    text.remove_suffix(1);
    ++pad;
  }
  if (text.size() % 4 == 1 || (pad > 0 && (text.size() + pad) % 4 != 0)) return false;
  uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    const int digit = Base64Digit(c);
    if (digit < 0) return false;
    bits = bits << 6 | static_cast<uint32_t>(digit);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out += static_cast<char>((bits >> count) & 0xFF);
    }
  }
  return true;
}

Result<ScalarExprPtr> BindToBase64(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], StringArg(call, std::move(args[0]), 0));
  const bool nullable = args[0]->nullable();
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), nullable, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    return MapStrings(a, n, [&](int64_t i, std::string& out) {
                      AppendBase64(a[0].GetView(i), out);
                      return true;
                    });
                  });
}

Result<ScalarExprPtr> BindFromBase64(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], StringArg(call, std::move(args[0]), 0));
  const bool nullable = args[0]->nullable();
  const std::string what = AtPosition(call.position, TextOf(call));
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), nullable, TextOf(call),
                  [what](std::span<const Array> a, int64_t n) -> Result<Array> {
                    Status failed = Ok();
                    Result<Array> out = MapStrings(a, n, [&](int64_t i, std::string& out) {
                      if (DecodeBase64(a[0].GetView(i), out)) return true;
                      if (failed) {
                        failed = InvalidArgument("{}: '{}' is not base64", what, a[0].GetView(i));
                      }
                      return false;
                    });
                    FLOE_RETURN_IF_ERROR(failed);
                    return out;
                  });
}

// Long.toHexString (shift 4) and Long.toBinaryString (shift 1) of the 64-bit value.
void AppendRadix(uint64_t v, int shift, const char* digits, std::string& out) {
  std::array<char, 64> buffer;
  size_t pos = buffer.size();
  const uint64_t mask = (uint64_t{1} << shift) - 1;
  do {
    buffer[--pos] = digits[v & mask];
    v >>= shift;
  } while (v != 0);
  out.append(buffer.data() + pos, buffer.size() - pos);
}

Result<ScalarExprPtr> BindHex(const Expr& call, Args args) {
  if (IsString(*args[0]->type())) {
    const bool nullable = args[0]->nullable();
    return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), nullable, TextOf(call),
                    [](std::span<const Array> a, int64_t n) {
                      return MapStrings(a, n, [&](int64_t i, std::string& out) {
                        for (char c : a[0].GetView(i)) {
                          const auto b = static_cast<unsigned char>(c);
                          out += kHexUpper[b >> 4];
                          out += kHexUpper[b & 15];
                        }
                        return true;
                      });
                    });
  }
  FLOE_ASSIGN_OR_RETURN(args[0], IntegerArg(call, std::move(args[0]), 0));
  const bool nullable = args[0]->nullable();
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), nullable, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    return MapStrings(a, n, [&](int64_t i, std::string& out) {
                      AppendRadix(static_cast<uint64_t>(a[0].Value<int64_t>(i)), 4, kHexUpper, out);
                      return true;
                    });
                  });
}

Result<ScalarExprPtr> BindBin(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], IntegerArg(call, std::move(args[0]), 0));
  const bool nullable = args[0]->nullable();
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), nullable, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    return MapStrings(a, n, [&](int64_t i, std::string& out) {
                      AppendRadix(static_cast<uint64_t>(a[0].Value<int64_t>(i)), 1, kHexUpper, out);
                      return true;
                    });
                  });
}

constexpr FunctionDef kEncodingFunctions[] = {
    {"MD5", 1, 1, BindMd5},
    {"SHA1", 1, 1, BindSha1},
    {"SHA224", 1, 1, BindSha224},
    {"SHA256", 1, 1, BindSha256},
    {"SHA384", 1, 1, BindSha384},
    {"SHA512", 1, 1, BindSha512},
    {"SHA2", 2, 2, BindSha2},
    {"TO_BASE64", 1, 1, BindToBase64},
    {"FROM_BASE64", 1, 1, BindFromBase64},
    {"HEX", 1, 1, BindHex},
    {"BIN", 1, 1, BindBin},
};

}  // namespace

std::span<const FunctionDef> EncodingFunctions() { return kEncodingFunctions; }

}  // namespace floe::sql::scalar
