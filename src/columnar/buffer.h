// Buffer: a growable, uninitialized, 64-byte aligned byte array — the storage under every
// column vector. Unlike std::vector it does not zero memory on resize, so decoders can write
// straight into it.
//
// Thread-safety: not thread-safe; a Buffer is owned by one writer until published read-only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace shoal::columnar {

class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(size_t size) { Resize(size); }
  ~Buffer() { std::free(data_); }
  Buffer(const Buffer& o) { Append(o.data_, o.size_); }
  Buffer& operator=(const Buffer& o) {
    if (this != &o) {
      size_ = 0;
      Append(o.data_, o.size_);
    }
    return *this;
  }
  Buffer(Buffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)),
        size_(std::exchange(o.size_, 0)),
        capacity_(std::exchange(o.capacity_, 0)) {}
  Buffer& operator=(Buffer&& o) noexcept {
    if (this != &o) {
      std::free(data_);
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      capacity_ = std::exchange(o.capacity_, 0);
    }
    return *this;
  }

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }

  template <typename T>
  T* As() { return reinterpret_cast<T*>(data_); }
  template <typename T>
  const T* As() const { return reinterpret_cast<const T*>(data_); }

  void Reserve(size_t capacity) {
    if (capacity <= capacity_) return;
    size_t cap = capacity_ ? capacity_ : 64;
    while (cap < capacity) cap += cap / 2 + 64;
    cap = (cap + 63) & ~size_t{63};
    void* p = std::aligned_alloc(64, cap);
    if (!p) throw std::bad_alloc();
    if (size_) std::memcpy(p, data_, size_);
    std::free(data_);
    data_ = static_cast<uint8_t*>(p);
    capacity_ = cap;
  }
  // Sets the size; new bytes are uninitialized.
  void Resize(size_t size) {
    Reserve(size);
    size_ = size;
  }
  // Sets the size; new bytes are zero.
  void ResizeZeroed(size_t size) {
    size_t old = size_;
    Resize(size);
    if (size > old) std::memset(data_ + old, 0, size - old);
  }
  // `p` may point into this buffer (the bytes are located again after a reallocation).
  void Append(const void* p, size_t n) {
    if (n == 0) return;
    const uint8_t* src = static_cast<const uint8_t*>(p);
    // Compared as integers: GCC's -Wuse-after-free cannot see that `p` outlives a Reserve of
    // another buffer inlined before this call, and warns on pointer comparisons with it.
    const uintptr_t at_src = reinterpret_cast<uintptr_t>(src), at_data = reinterpret_cast<uintptr_t>(data_);
    if (data_ && at_src >= at_data && at_src < at_data + size_) {
      size_t at = static_cast<size_t>(at_src - at_data);
      Reserve(size_ + n);
      src = data_ + at;
    } else {
      Reserve(size_ + n);
    }
    std::memcpy(data_ + size_, src, n);
    size_ += n;
  }
  template <typename T>
  void Push(const T& v) {
    Append(&v, sizeof(T));
  }
  void Clear() { size_ = 0; }

 private:
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace shoal::columnar
