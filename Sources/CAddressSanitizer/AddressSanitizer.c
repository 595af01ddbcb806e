#include "AddressSanitizer.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SY_ADDRESS_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SY_ADDRESS_SANITIZER 1
#endif

#ifdef SY_ADDRESS_SANITIZER
#include <sanitizer/asan_interface.h>

int sy_address_sanitizer_enabled(void) { return 1; }
void sy_address_sanitizer_poison(const void *address, size_t size) { ASAN_POISON_MEMORY_REGION(address, size); }
void sy_address_sanitizer_unpoison(const void *address, size_t size) { ASAN_UNPOISON_MEMORY_REGION(address, size); }
int sy_address_sanitizer_is_poisoned(const void *address) { return __asan_address_is_poisoned(address); }
#else
int sy_address_sanitizer_enabled(void) { return 0; }
void sy_address_sanitizer_poison(const void *address, size_t size) { (void)address; (void)size; }
void sy_address_sanitizer_unpoison(const void *address, size_t size) { (void)address; (void)size; }
int sy_address_sanitizer_is_poisoned(const void *address) { (void)address; return 0; }
#endif
