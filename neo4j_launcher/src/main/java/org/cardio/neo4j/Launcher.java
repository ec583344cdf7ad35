package org.cardio.neo4j;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;

/**
 * Embedded Neo4j Community with the Bolt connector bound to 127.0.0.1 only.
 *
 * <p>Why embedded: no Neo4j package or Docker is available on the target machines, but the
 * Community jars are on Maven Central. Authentication is ON: the password for user {@code neo4j}
 * is generated once and kept in a file readable only by its owner (mode 0600), which clients read.
 *
 * <p>Usage: {@code Launcher --home DIR --port N --password-file FILE [--page-cache 512m]}
 *
 * <p>Prints {@code CARDIO-NEO4J READY bolt://127.0.0.1:N} when the database accepts work and
 * {@code CARDIO-NEO4J STOPPED} after a clean shutdown (SIGTERM / Ctrl-C run the shutdown hook).
 */
public final class Launcher {
  private static final String TAG = "CARDIO-NEO4J";
  private static final String USER = "neo4j";
  private static final Set<PosixFilePermission> OWNER_ONLY_DIR =
      PosixFilePermissions.fromString("rwx------");

  private Launcher() {}

  public static void main(String[] argv) throws Exception {
    Map<String, String> args = parseArgs(argv);
    Path home = Path.of(require(args, "home")).toAbsolutePath();
    int port = Integer.parseInt(require(args, "port"));
    Path passwordFile = Path.of(require(args, "password-file")).toAbsolutePath();
    long pageCache = parseBytes(args.getOrDefault("page-cache", "512m"));

    // Owner-only folders; the files Neo4j writes inside are owner-only through the umask
    // (077) the Python side starts this JVM with (Java cannot set one itself).
    Files.createDirectories(home, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
    String password = readOrCreatePassword(passwordFile);

    log("starting Neo4j (home " + home + ", bolt 127.0.0.1:" + port + ")");
    DatabaseManagementService service;
    try {
      service =
          new DatabaseManagementServiceBuilder(home)
              .setConfig(BoltConnector.enabled, true)
              .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
              .setConfig(BoltConnector.advertised_address, new SocketAddress("127.0.0.1", port))
              .setConfig(HttpConnector.enabled, false)
              .setConfig(HttpsConnector.enabled, false)
              .setConfig(GraphDatabaseSettings.auth_enabled, true)
              .setConfig(GraphDatabaseSettings.pagecache_memory, pageCache)
              .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
              .setConfig(GraphDatabaseSettings.keep_logical_logs, "2 files")
              .setConfig(GraphDatabaseSettings.udc_enabled, false) // dbms.usage_report.enabled
              .build();
    } catch (RuntimeException e) {
      log("FAILED to start: " + rootMessage(e));
      e.printStackTrace(System.err);
      System.exit(2);
      return;
    }

    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  log("shutting down");
                  try {
                    service.shutdown();
                    log("STOPPED");
                  } finally {
                    stopped.countDown();
                  }
                },
                "cardio-neo4j-shutdown"));

    GraphDatabaseService db = service.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
    if (!db.isAvailable(Duration.ofMinutes(3).toMillis())) {
      log("FAILED: database did not become available within 3 minutes");
      System.exit(3);
    }
    try {
      setPassword(service, password);
    } catch (RuntimeException e) {
      log("FAILED to set the neo4j password: " + rootMessage(e));
      System.exit(4);
    }
    System.out.println(TAG + " READY bolt://127.0.0.1:" + port);
    System.out.flush();
    stopped.await();
  }

  /** Keep the user's password equal to the file's content on every start (idempotent). */
  private static void setPassword(DatabaseManagementService service, String password) {
    GraphDatabaseService system = service.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
    try {
      system.executeTransactionally(
          "ALTER USER " + USER + " SET PASSWORD $password CHANGE NOT REQUIRED",
          Map.of("password", password));
    } catch (RuntimeException e) {
      // Re-setting the current password is refused; that just means it is already right.
      String msg = rootMessage(e);
      if (!msg.contains("Old password and new password cannot be the same")) {
        throw e;
      }
    }
  }

  private static String readOrCreatePassword(Path file) throws IOException {
    if (Files.exists(file)) {
      String existing = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (!existing.isEmpty()) {
        return existing;
      }
    }
    Files.createDirectories(
        file.getParent(), PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
    byte[] raw = new byte[24];
    new SecureRandom().nextBytes(raw);
    String password = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    Set<PosixFilePermission> ownerOnly = EnumSet.of(PosixFilePermission.OWNER_READ,
        PosixFilePermission.OWNER_WRITE);
    Files.deleteIfExists(file);
    Files.createFile(file, PosixFilePermissions.asFileAttribute(ownerOnly));
    Files.writeString(file, password + "\n", StandardCharsets.UTF_8,
        StandardOpenOption.TRUNCATE_EXISTING);
    log("generated a new password in " + file + " (mode 0600)");
    return password;
  }

  private static Map<String, String> parseArgs(String[] argv) {
    java.util.HashMap<String, String> out = new java.util.HashMap<>();
    for (int i = 0; i < argv.length; i++) {
      String a = argv[i];
      if (!a.startsWith("--") || i + 1 >= argv.length) {
        usage("unexpected argument: " + a);
      }
      out.put(a.substring(2), argv[++i]);
    }
    return out;
  }

  private static String require(Map<String, String> args, String key) {
    String v = args.get(key);
    if (v == null || v.isBlank()) {
      usage("missing --" + key);
    }
    return v;
  }

  private static long parseBytes(String s) {
    String t = s.strip().toLowerCase();
    long mult = 1;
    if (t.endsWith("g")) {
      mult = 1L << 30;
    } else if (t.endsWith("m")) {
      mult = 1L << 20;
    } else if (t.endsWith("k")) {
      mult = 1L << 10;
    }
    if (mult != 1) {
      t = t.substring(0, t.length() - 1);
    }
    return Long.parseLong(t) * mult;
  }

  private static void usage(String problem) {
    System.err.println(TAG + " " + problem);
    System.err.println(
        "usage: Launcher --home DIR --port N --password-file FILE [--page-cache 512m]");
    System.exit(64);
  }

  private static String rootMessage(Throwable e) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (sb.length() > 0) {
        sb.append(" <- ");
      }
      sb.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
      if (t.getCause() == t) {
        break;
      }
    }
    return sb.toString();
  }

  private static void log(String msg) {
    System.out.println(TAG + " " + msg);
    System.out.flush();
  }

}
