"""The device side of the ADB transport over TCP: one listener per PhoneWorld device, as a phone
with `adb tcpip` enabled (or an emulator's adbd) would be.

The host speaks first with CNXN; we answer with our banner (no AUTH). The host then OPENs
streams by service name; each runs as its own task. A malformed packet closes that connection
with a log line; it never affects other connections or other devices.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field

from phonebuddy.phoneworld.adb import android
from phonebuddy.phoneworld.adb.phone import AdbPhone
from phonebuddy.phoneworld.adb.protocol import (
    A_AUTH,
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_STLS,
    A_VERSION,
    A_WRTE,
    MAX_PAYLOAD,
    Packet,
    PacketError,
    connect_banner,
    read_packet,
)
from phonebuddy.phoneworld.adb.services import ServiceHandler, open_service
from phonebuddy.phoneworld.adb.streams import Stream, StreamClosedError

log = logging.getLogger(__name__)

MIN_PAYLOAD = 4096
MAX_STREAMS = 256  # per connection
HANDSHAKE_TIMEOUT_S = 30.0


@dataclass(eq=False)
class _Connection:
    phone: AdbPhone
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    peer: str
    max_data: int = MAX_PAYLOAD
    streams: dict[int, Stream] = field(default_factory=dict)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    next_id: int = 1
    connected: bool = False

    def send(self, packet: Packet) -> None:
        if not self.writer.is_closing():
            self.writer.write(packet.encode())

    async def run(self) -> None:
        try:
            while True:
                timeout = None if self.connected else HANDSHAKE_TIMEOUT_S
                packet = await asyncio.wait_for(read_packet(self.reader), timeout)
                self._handle(packet)
                await self.writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            log.debug("adb %s: %s disconnected", self.phone.serial, self.peer)
        except PacketError as exc:
            log.warning("adb %s: closing %s: %s", self.phone.serial, self.peer, exc.reason)
        except TimeoutError:
            log.warning("adb %s: closing %s: no CNXN in time", self.phone.serial, self.peer)
        finally:
            await self._close()

    def _handle(self, packet: Packet) -> None:
        if packet.command == A_CNXN:
            self._connect(packet)
        elif not self.connected:
            raise PacketError(f"{packet.name} before CNXN")
        elif packet.command == A_OPEN:
            self._open(packet)
        elif packet.command in (A_OKAY, A_WRTE, A_CLSE):
            self._stream_packet(packet)
        elif packet.command in (A_AUTH, A_STLS):
            raise PacketError(f"unexpected {packet.name}: this device needs neither")
        else:
            log.debug("adb %s: ignoring %r", self.phone.serial, packet)

    def _connect(self, packet: Packet) -> None:
        host_max = packet.arg1
        if host_max < MIN_PAYLOAD:
            raise PacketError(f"host max payload {host_max} is below {MIN_PAYLOAD}")
        for stream in list(self.streams.values()):  # a new CNXN restarts the transport
            stream.on_close()
        self.streams.clear()
        self.max_data = min(host_max, MAX_PAYLOAD)
        self.connected = True
        banner = connect_banner(self.phone.props, android.FEATURES)
        self.send(Packet(A_CNXN, A_VERSION, MAX_PAYLOAD, banner))
        log.info("adb %s: host %s connected", self.phone.serial, self.peer)

    def _open(self, packet: Packet) -> None:
        remote_id = packet.arg0
        name = packet.payload.decode(errors="replace")
        handler = open_service(self.phone, name)
        if handler is None or remote_id == 0 or len(self.streams) >= MAX_STREAMS:
            log.info("adb %s: refusing service %r", self.phone.serial, name.rstrip("\x00"))
            self.send(Packet(A_CLSE, 0, remote_id))
            return
        local_id = self.next_id
        self.next_id = self.next_id % 0x7FFFFFFF + 1
        stream = Stream(local_id, remote_id, self.send, self.max_data)
        self.streams[local_id] = stream
        self.send(Packet(A_OKAY, local_id, remote_id))
        task = asyncio.create_task(self._serve(stream, handler, name))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _serve(self, stream: Stream, handler: ServiceHandler, name: str) -> None:
        try:
            await handler(stream)
        except StreamClosedError:
            pass
        except Exception:
            log.exception("adb %s: service %r failed", self.phone.serial, name.rstrip("\x00"))
        finally:
            stream.close()
            self.streams.pop(stream.local_id, None)
            with contextlib.suppress(ConnectionError):
                await self.writer.drain()

    def _stream_packet(self, packet: Packet) -> None:
        stream = self.streams.get(packet.arg1)
        if stream is None:
            return  # for a stream we already closed: ignore, as adbd does
        if packet.command == A_OKAY:
            stream.on_okay()
        elif packet.command == A_WRTE:
            if not stream.on_write(packet.payload):
                log.warning("adb %s: host overran stream %d", self.phone.serial, stream.local_id)
                stream.abort()
                self.streams.pop(stream.local_id, None)
        else:
            stream.on_close()
            self.streams.pop(stream.local_id, None)

    async def _close(self) -> None:
        # Services see their streams close and end by themselves; they are not cancelled, as a
        # command that is running on the device must finish before its lock is released.
        for stream in list(self.streams.values()):
            stream.on_close()
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


class AdbDeviceServer:
    """Listens on one TCP port and serves one PhoneWorld device to any number of hosts."""

    def __init__(self, phone: AdbPhone, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.phone = phone
        self.host = host
        self.port = port
        self._server: asyncio.Server | None = None
        self._connections: dict[_Connection, asyncio.Future[None]] = {}

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("adb %s: listening on %s:%d", self.phone.serial, self.host, self.port)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        connection = _Connection(self.phone, reader, writer, peer=f"{peer[0]}:{peer[1]}")
        done = self._connections[connection] = asyncio.get_running_loop().create_future()
        try:
            await connection.run()
        finally:
            del self._connections[connection]
            done.set_result(None)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            # Cut the links rather than cancel their tasks: each connection then ends normally.
            for connection in list(self._connections):
                connection.writer.transport.abort()
            await asyncio.gather(*self._connections.values())
            await self._server.wait_closed()
            self._server = None
