#include "CLinuxSPI.h"

#include <stddef.h>
#include <sys/ioctl.h>

// The layout Swift fills (it imports the struct from <linux/spi/spidev.h>); the kernel reads the
// same 32 bytes on 32- and 64-bit userspace. If a future header changes it, fail the build here.
_Static_assert(sizeof(struct spi_ioc_transfer) == 32, "spi_ioc_transfer is 32 bytes");
_Static_assert(offsetof(struct spi_ioc_transfer, tx_buf) == 0, "tx_buf at 0");
_Static_assert(offsetof(struct spi_ioc_transfer, rx_buf) == 8, "rx_buf at 8");
_Static_assert(offsetof(struct spi_ioc_transfer, len) == 16, "len at 16");
_Static_assert(offsetof(struct spi_ioc_transfer, speed_hz) == 20, "speed_hz at 20");
_Static_assert(offsetof(struct spi_ioc_transfer, delay_usecs) == 24, "delay_usecs at 24");
_Static_assert(offsetof(struct spi_ioc_transfer, bits_per_word) == 26, "bits_per_word at 26");
_Static_assert(offsetof(struct spi_ioc_transfer, cs_change) == 27, "cs_change at 27");
_Static_assert(offsetof(struct spi_ioc_transfer, word_delay_usecs) == 30, "word_delay_usecs at 30");

int loaderd_spi_write_mode(int fd, uint8_t mode) { return ioctl(fd, SPI_IOC_WR_MODE, &mode); }

int loaderd_spi_write_bits_per_word(int fd, uint8_t bits) { return ioctl(fd, SPI_IOC_WR_BITS_PER_WORD, &bits); }

int loaderd_spi_write_max_speed_hz(int fd, uint32_t hz) { return ioctl(fd, SPI_IOC_WR_MAX_SPEED_HZ, &hz); }

int loaderd_spi_read_max_speed_hz(int fd, uint32_t *hz) { return ioctl(fd, SPI_IOC_RD_MAX_SPEED_HZ, hz); }

int loaderd_spi_message(int fd, const struct spi_ioc_transfer *transfers, uint32_t count) {
    return ioctl(fd, SPI_IOC_MESSAGE(count), transfers);
}

unsigned long loaderd_spi_ioc_message_request(uint32_t count) { return SPI_IOC_MESSAGE(count); }
