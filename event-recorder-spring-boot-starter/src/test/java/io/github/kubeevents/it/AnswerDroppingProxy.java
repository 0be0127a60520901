package io.github.kubeevents.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on loopback between a client and the API server that relays bytes both ways, TLS untouched, and can
 * lose answers: after {@link #holdAnswers()} what the server sends is kept instead of passed on (what the client
 * sends still goes through, so the server receives and handles the requests); {@link #dropConnections()} then
 * closes every open connection, both sides, without passing on what was held: for the client, the connection broke
 * after its request was sent and before any answer came. Later connections are relayed as usual.
 *
 * <p>Plain sockets, one thread per direction and connection (daemon threads). Thread-safe.
 */
final class AnswerDroppingProxy implements AutoCloseable {

	private final ServerSocket server;

	private final InetSocketAddress target;

	private final List<Connection> open = new CopyOnWriteArrayList<>();

	private final AtomicInteger accepted = new AtomicInteger();

	private volatile boolean holding;

	private AnswerDroppingProxy(URI target) throws IOException {
		this.target = new InetSocketAddress(target.getHost(), target.getPort());
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "answer-dropping-proxy-accept");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * Starts a proxy to the server of {@code url}.
	 * @param url e.g. {@code https://127.0.0.1:6443}
	 * @return the running proxy
	 * @throws IOException when it cannot listen
	 */
	static AnswerDroppingProxy to(String url) throws IOException {
		return new AnswerDroppingProxy(URI.create(url));
	}

	/** @return {@code https://127.0.0.1:<port>} of the proxy */
	String url() {
		return "https://" + this.server.getInetAddress().getHostAddress() + ":" + this.server.getLocalPort();
	}

	/** @return connections accepted so far */
	int accepted() {
		return this.accepted.get();
	}

	/** From now on, what the server sends is held back, not passed on to the client. */
	void holdAnswers() {
		this.holding = true;
	}

	/** @return bytes the server sent that were held back so far, over the open connections */
	int held() {
		return this.open.stream().mapToInt(Connection::held).sum();
	}

	/**
	 * Closes every open connection, client and server side, without passing on what was held; stops holding.
	 * @return the bytes that were held (and are now lost)
	 */
	int dropConnections() {
		int lost = 0;
		for (Connection connection : this.open) {
			lost += connection.held();
			connection.close();
		}
		this.open.clear();
		this.holding = false;
		return lost;
	}

	@Override
	public void close() throws IOException {
		this.server.close();
		this.open.forEach(Connection::close);
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				Socket upstream = new Socket();
				upstream.connect(this.target);
				this.accepted.incrementAndGet();
				Connection connection = new Connection(client, upstream);
				this.open.add(connection);
				connection.start();
			}
			catch (IOException ex) {
				// closed, or the server could not be reached: the client sees its connection end
			}
		}
	}

	/** One relayed connection. */
	private final class Connection {

		private final Socket client;

		private final Socket upstream;

		private final ByteArrayOutputStream held = new ByteArrayOutputStream();

		Connection(Socket client, Socket upstream) {
			this.client = client;
			this.upstream = upstream;
		}

		void start() {
			int id = AnswerDroppingProxy.this.accepted.get();
			relay("answer-dropping-proxy-" + id + "-request", this.client, this.upstream, false);
			relay("answer-dropping-proxy-" + id + "-answer", this.upstream, this.client, true);
		}

		int held() {
			synchronized (this.held) {
				return this.held.size();
			}
		}

		void close() {
			closeQuietly(this.client);
			closeQuietly(this.upstream);
		}

		private void relay(String name, Socket from, Socket to, boolean answers) {
			Thread thread = new Thread(() -> {
				byte[] buffer = new byte[16 * 1024];
				try (InputStream in = from.getInputStream()) {
					OutputStream out = to.getOutputStream();
					int n;
					while ((n = in.read(buffer)) >= 0) {
						if (answers && AnswerDroppingProxy.this.holding) {
							synchronized (this.held) {
								this.held.write(buffer, 0, n);
							}
							continue;
						}
						out.write(buffer, 0, n);
						out.flush();
					}
				}
				catch (IOException ex) {
					// one side closed: close both
				}
				finally {
					close();
				}
			}, name);
			thread.setDaemon(true);
			thread.start();
		}

	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// already closed
		}
	}

}
