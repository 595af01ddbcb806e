// AddressSanitizer's manual poisoning, for memory that the engine hands out itself (the tensor
// arena, `BufferPool`): where a build has ASan, a read or write of an arena range that no tensor
// holds is reported as if it were past the end of a malloc'ed block; elsewhere these do nothing.
#pragma once

#include <stddef.h>

/// Whether this build runs under AddressSanitizer.
int sy_address_sanitizer_enabled(void);

/// Marks `size` bytes from `address` as not to be touched (a no-op without ASan).
void sy_address_sanitizer_poison(const void *address, size_t size);

/// Marks `size` bytes from `address` as usable again (a no-op without ASan).
void sy_address_sanitizer_unpoison(const void *address, size_t size);

/// Whether the byte at `address` is poisoned (always 0 without ASan).
int sy_address_sanitizer_is_poisoned(const void *address);
