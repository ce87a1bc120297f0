#include <cstring>

#include "floe/format/orc/rle_internal.h"

namespace floe::orc {
namespace {

int64_t UnZigZag(uint64_t value) {
  return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
}

class ByteStream {
 public:
  explicit ByteStream(std::span<const std::byte> in) : in_(in) {}

  size_t position() const { return pos_; }
  size_t remaining() const { return in_.size() - pos_; }
  bool done() const { return pos_ >= in_.size(); }

  std::unexpected<Error> Corrupt(std::string_view what) const {
    return CorruptData("RLE stream of {} bytes: {} at offset {}", in_.size(), what, pos_);
  }

  Result<uint8_t> Byte() {
    if (pos_ >= in_.size()) return Corrupt("the stream ends inside a run");
    return static_cast<uint8_t>(in_[pos_++]);
  }
  Result<uint64_t> Varint() {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      FLOE_ASSIGN_OR_RETURN(uint8_t byte, Byte());
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return value;
    }
    return Corrupt("varint longer than 10 bytes");
  }
  // width bytes, big-endian.
  Result<uint64_t> BigEndian(int width) {
    if (remaining() < static_cast<size_t>(width)) return Corrupt("the stream ends inside a run");
    uint64_t value = 0;
    for (int i = 0; i < width; ++i) value = (value << 8) | static_cast<uint8_t>(in_[pos_++]);
    return value;
  }
  Status Copy(uint8_t* out, size_t n) {
    if (remaining() < n) return Corrupt("the stream ends inside a run");
    std::memcpy(out, in_.data() + pos_, n);
    pos_ += n;
    return Ok();
  }
  // n values of `bits` bits each (1..64), packed most significant bit first from the current
  // byte; the run ends at a byte boundary.
  Status Unpack(int bits, int64_t n, uint64_t* out) {
    const uint64_t total_bits = static_cast<uint64_t>(bits) * static_cast<uint64_t>(n);
    if ((total_bits + 7) / 8 > remaining()) return Corrupt("the stream ends inside a run");
    if (bits % 8 == 0) {
      const int width = bits / 8;
      for (int64_t i = 0; i < n; ++i) {
        uint64_t value = 0;
        for (int b = 0; b < width; ++b) value = (value << 8) | static_cast<uint8_t>(in_[pos_++]);
        out[i] = value;
      }
      return Ok();
    }
    // bits < 64 and not a whole number of bytes: at most 56 bits, so the buffer never overflows.
    uint64_t buffer = 0;
    int have = 0;
    const uint64_t mask = (uint64_t{1} << bits) - 1;
    for (int64_t i = 0; i < n; ++i) {
      while (have < bits) {
        buffer = (buffer << 8) | static_cast<uint8_t>(in_[pos_++]);
        have += 8;
      }
      out[i] = (buffer >> (have - bits)) & mask;
      have -= bits;
    }
    return Ok();
  }

 private:
  std::span<const std::byte> in_;
  size_t pos_ = 0;
};

Status CheckRun(const ByteStream& in, int64_t run, int64_t left) {
  if (run > left) {
    return in.Corrupt("a run of " + std::to_string(run) + " values where " + std::to_string(left) +
                      " remain");
  }
  return Ok();
}

// The control byte of a byte RLE or RLE v1 run: `length` repeats (of a byte, or of a base with a
// delta), or `length` literal values.
struct Control {
  bool repeat;
  int64_t length;
};

Result<Control> ReadControl(ByteStream& in, int64_t left) {
  FLOE_ASSIGN_OR_RETURN(uint8_t byte, in.Byte());
  const auto header = static_cast<int8_t>(byte);
  const Control control{header >= 0, header >= 0 ? header + 3 : -static_cast<int64_t>(header)};
  FLOE_RETURN_IF_ERROR(CheckRun(in, control.length, left));
  return control;
}

// RLE v2's 5-bit width codes.
int DecodeWidth(uint32_t code) {
  static constexpr int kWidths[32] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                      12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                                      23, 24, 26, 28, 30, 32, 40, 48, 56, 64};
  return kWidths[code & 31];
}

// The smallest width of the set RLE v2 packs with that holds `bits` bits.
int ClosestFixedBits(int bits) {
  if (bits <= 1) return 1;
  if (bits <= 24) return bits;
  for (int width : {26, 28, 30, 32, 40, 48, 56, 64}) {
    if (bits <= width) return width;
  }
  return 64;
}

Status DecodeV1(ByteStream& in, bool is_signed, int64_t count, int64_t* out) {
  int64_t done = 0;
  while (done < count) {
    FLOE_ASSIGN_OR_RETURN(Control control, ReadControl(in, count - done));
    if (control.repeat) {
      FLOE_ASSIGN_OR_RETURN(uint8_t delta_byte, in.Byte());
      const auto delta = static_cast<int8_t>(delta_byte);
      FLOE_ASSIGN_OR_RETURN(uint64_t raw, in.Varint());
      uint64_t value = is_signed ? static_cast<uint64_t>(UnZigZag(raw)) : raw;
      for (int64_t i = 0; i < control.length; ++i) {
        out[done++] = static_cast<int64_t>(value);
        value += static_cast<uint64_t>(static_cast<int64_t>(delta));
      }
    } else {
      for (int64_t i = 0; i < control.length; ++i) {
        FLOE_ASSIGN_OR_RETURN(uint64_t raw, in.Varint());
        out[done++] = is_signed ? UnZigZag(raw) : static_cast<int64_t>(raw);
      }
    }
  }
  return Ok();
}

Status DecodeV2(ByteStream& in, bool is_signed, int64_t count, int64_t* out) {
  uint64_t unpacked[512];
  int64_t done = 0;
  while (done < count) {
    FLOE_ASSIGN_OR_RETURN(uint8_t first, in.Byte());
    const int encoding = first >> 6;
    if (encoding == 0) {  // short repeat
      const int width = ((first >> 3) & 7) + 1;
      const int64_t run = (first & 7) + 3;
      FLOE_RETURN_IF_ERROR(CheckRun(in, run, count - done));
      FLOE_ASSIGN_OR_RETURN(uint64_t raw, in.BigEndian(width));
      const int64_t value = is_signed ? UnZigZag(raw) : static_cast<int64_t>(raw);
      for (int64_t i = 0; i < run; ++i) out[done++] = value;
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(uint8_t second, in.Byte());
    const int64_t run = ((static_cast<int64_t>(first & 1) << 8) | second) + 1;
    FLOE_RETURN_IF_ERROR(CheckRun(in, run, count - done));
    const uint32_t width_code = (first >> 1) & 31;
    if (encoding == 1) {  // direct
      FLOE_RETURN_IF_ERROR(in.Unpack(DecodeWidth(width_code), run, unpacked));
      for (int64_t i = 0; i < run; ++i) {
        out[done++] = is_signed ? UnZigZag(unpacked[i]) : static_cast<int64_t>(unpacked[i]);
      }
    } else if (encoding == 2) {  // patched base
      const int width = DecodeWidth(width_code);
      FLOE_ASSIGN_OR_RETURN(uint8_t third, in.Byte());
      FLOE_ASSIGN_OR_RETURN(uint8_t fourth, in.Byte());
      const int base_width = (third >> 5) + 1;
      const int patch_width = DecodeWidth(third & 31);
      const int gap_width = (fourth >> 5) + 1;
      const int patches = fourth & 31;
      // The check also keeps patch_width below 64, so the shifts below are defined.
      if (width + patch_width > 64) return in.Corrupt("a patch wider than 64 bits");
      FLOE_ASSIGN_OR_RETURN(uint64_t base_raw, in.BigEndian(base_width));
      // Sign and magnitude: the top bit of the base's bytes is its sign.
      const uint64_t sign = uint64_t{1} << (base_width * 8 - 1);
      const uint64_t base = (base_raw & sign) ? 0 - (base_raw & ~sign) : base_raw;
      FLOE_RETURN_IF_ERROR(in.Unpack(width, run, unpacked));
      uint64_t patch_list[31];
      const int entry_width = ClosestFixedBits(gap_width + patch_width);
      FLOE_RETURN_IF_ERROR(in.Unpack(entry_width, patches, patch_list));
      const uint64_t patch_mask = (uint64_t{1} << patch_width) - 1;
      int64_t position = 0;
      for (int p = 0; p < patches; ++p) {
        const uint64_t gap = patch_list[p] >> patch_width;
        const uint64_t patch = patch_list[p] & patch_mask;
        position += static_cast<int64_t>(gap);
        if (gap == 255 && patch == 0) continue;  // a gap too long for one entry
        if (position >= run) return in.Corrupt("a patch past the end of its run");
        unpacked[position] |= patch << width;
      }
      for (int64_t i = 0; i < run; ++i) out[done++] = static_cast<int64_t>(base + unpacked[i]);
    } else {  // delta
      const int width = width_code == 0 ? 0 : DecodeWidth(width_code);
      FLOE_ASSIGN_OR_RETURN(uint64_t base_raw, in.Varint());
      FLOE_ASSIGN_OR_RETURN(uint64_t delta_raw, in.Varint());
      const int64_t delta_base = UnZigZag(delta_raw);
      uint64_t value = is_signed ? static_cast<uint64_t>(UnZigZag(base_raw)) : base_raw;
      out[done++] = static_cast<int64_t>(value);
      if (run == 1) continue;
      value += static_cast<uint64_t>(delta_base);
      out[done++] = static_cast<int64_t>(value);
      if (width == 0) {
        for (int64_t i = 2; i < run; ++i) {
          value += static_cast<uint64_t>(delta_base);
          out[done++] = static_cast<int64_t>(value);
        }
      } else {
        FLOE_RETURN_IF_ERROR(in.Unpack(width, run - 2, unpacked));
        for (int64_t i = 0; i < run - 2; ++i) {
          value = delta_base < 0 ? value - unpacked[i] : value + unpacked[i];
          out[done++] = static_cast<int64_t>(value);
        }
      }
    }
  }
  return Ok();
}

}  // namespace

Status DecodeByteRle(std::span<const std::byte> bytes, int64_t count, uint8_t* out) {
  ByteStream in(bytes);
  int64_t done = 0;
  while (done < count) {
    FLOE_ASSIGN_OR_RETURN(Control control, ReadControl(in, count - done));
    if (control.repeat) {
      FLOE_ASSIGN_OR_RETURN(uint8_t value, in.Byte());
      std::memset(out + done, value, control.length);
    } else {
      FLOE_RETURN_IF_ERROR(in.Copy(out + done, control.length));
    }
    done += control.length;
  }
  return Ok();
}

Status DecodeBooleanRle(std::span<const std::byte> in, int64_t count, uint8_t* out) {
  const int64_t bytes = (count + 7) / 8;
  FLOE_RETURN_IF_ERROR(DecodeByteRle(in, bytes, out));
  // MSB-first to LSB-first: reverse the bits of each byte.
  for (int64_t i = 0; i < bytes; ++i) {
    uint8_t b = out[i];
    b = static_cast<uint8_t>((b & 0xf0) >> 4 | (b & 0x0f) << 4);
    b = static_cast<uint8_t>((b & 0xcc) >> 2 | (b & 0x33) << 2);
    b = static_cast<uint8_t>((b & 0xaa) >> 1 | (b & 0x55) << 1);
    out[i] = b;
  }
  return Ok();
}

Status DecodeIntRle(std::span<const std::byte> bytes, IntRleVersion version, bool is_signed,
                    int64_t count, int64_t* out) {
  ByteStream in(bytes);
  return version == IntRleVersion::kV1 ? DecodeV1(in, is_signed, count, out)
                                       : DecodeV2(in, is_signed, count, out);
}

}  // namespace floe::orc
