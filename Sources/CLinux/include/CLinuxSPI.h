#ifndef LOADERD_CLINUX_SPI_H
#define LOADERD_CLINUX_SPI_H
// spidev: the ioctl request numbers are built by macros (_IOW with a size computed from the
// transfer count for SPI_IOC_MESSAGE(n)) and ioctl(2) is variadic, so Swift can reach neither.
// Each wrapper makes exactly one ioctl and returns its result (-1 with errno set on failure).
#include <stdint.h>
#include <linux/spi/spidev.h>

/// SPI_IOC_WR_MODE: SPI mode 0...3 (clock polarity and phase), for every later message.
int loaderd_spi_write_mode(int fd, uint8_t mode);
/// SPI_IOC_WR_BITS_PER_WORD: 8 for every chip driven here.
int loaderd_spi_write_bits_per_word(int fd, uint8_t bits);
/// SPI_IOC_WR_MAX_SPEED_HZ: the default clock of later messages.
int loaderd_spi_write_max_speed_hz(int fd, uint32_t hz);
/// SPI_IOC_RD_MAX_SPEED_HZ: what the driver kept (it may round down).
int loaderd_spi_read_max_speed_hz(int fd, uint32_t *hz);
/// SPI_IOC_MESSAGE(count): `count` transfers (zero-initialised by the caller) executed as one
/// message with chip select held between them; the total transmitted length must not exceed
/// spidev's bufsiz. Returns the number of bytes transferred.
int loaderd_spi_message(int fd, const struct spi_ioc_transfer *transfers, uint32_t count);
/// The request number of SPI_IOC_MESSAGE(count), for tests that pin it.
unsigned long loaderd_spi_ioc_message_request(uint32_t count);

#endif
