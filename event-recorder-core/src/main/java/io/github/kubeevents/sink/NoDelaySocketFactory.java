package io.github.kubeevents.sink;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import javax.net.SocketFactory;

/**
 * Sockets with TCP_NODELAY, around another factory (OkHttp never sets it; Go's HTTP client does). Small requests
 * then go out at once instead of waiting for the previous segment's acknowledgement.
 *
 * <p>Thread-safe as the wrapped factory.
 */
final class NoDelaySocketFactory extends SocketFactory {

	private final SocketFactory delegate;

	NoDelaySocketFactory(SocketFactory delegate) {
		this.delegate = delegate;
	}

	@Override
	public Socket createSocket() throws IOException {
		return noDelay(this.delegate.createSocket());
	}

	@Override
	public Socket createSocket(String host, int port) throws IOException {
		return noDelay(this.delegate.createSocket(host, port));
	}

	@Override
	public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
		return noDelay(this.delegate.createSocket(host, port, localHost, localPort));
	}

	@Override
	public Socket createSocket(InetAddress host, int port) throws IOException {
		return noDelay(this.delegate.createSocket(host, port));
	}

	@Override
	public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
			throws IOException {
		return noDelay(this.delegate.createSocket(address, port, localAddress, localPort));
	}

	private static Socket noDelay(Socket socket) throws SocketException {
		socket.setTcpNoDelay(true);
		return socket;
	}

}
