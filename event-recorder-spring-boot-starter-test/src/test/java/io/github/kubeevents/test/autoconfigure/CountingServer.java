package io.github.kubeevents.test.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP port on loopback that counts the connections made to it (and closes each at once), with a kubeconfig
 * pointing at it: the "cluster" a test must never contact.
 */
final class CountingServer implements AutoCloseable {

	private final ServerSocket socket;

	private final AtomicInteger connections = new AtomicInteger();

	private CountingServer(ServerSocket socket) {
		this.socket = socket;
		Thread acceptor = new Thread(this::accept, "counting-server-" + socket.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	static CountingServer start() {
		try {
			return new CountingServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void accept() {
		while (!this.socket.isClosed()) {
			try (Socket ignored = this.socket.accept()) {
				this.connections.incrementAndGet();
			}
			catch (IOException ex) {
				// closed
			}
		}
	}

	int connections() {
		return this.connections.get();
	}

	/**
	 * Writes a kubeconfig whose current context points at this server (token user, no CA check).
	 * @param file where
	 * @return the file
	 */
	Path writeKubeconfig(Path file) {
		try {
			Files.createDirectories(file.toAbsolutePath().getParent());
			return Files.writeString(file, """
					apiVersion: v1
					kind: Config
					clusters:
					- name: never
					  cluster:
					    server: https://127.0.0.1:%d
					    insecure-skip-tls-verify: true
					users:
					- name: never
					  user:
					    token: never-used
					contexts:
					- name: never
					  context:
					    cluster: never
					    user: never
					current-context: never
					""".formatted(this.socket.getLocalPort()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
