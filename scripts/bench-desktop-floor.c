/*
 * The floor under scripts/bench-desktop.sh: a bare GTK window with one WebKitGTK web view and
 * nothing else (no Tauri, no Rust, no app page). It loads URL (default about:blank), prints
 * the milliseconds from its start to the load's end, and then idles until it is killed, so
 * that its memory and its WebKit processes' can be read. Built and run by
 * scripts/bench-desktop-floor.sh.
 *
 * HEDDLE_FLOOR_NO_COMPOSITING=1 sets the view's hardware acceleration policy to "never"
 * before it loads (what WEBKIT_DISABLE_COMPOSITING_MODE=1 does for every view).
 */
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <webkit2/webkit2.h>

static struct timespec started;

static double elapsed_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (now.tv_sec - started.tv_sec) * 1e3 + (now.tv_nsec - started.tv_nsec) / 1e6;
}

static void on_load_changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data) {
  (void)view;
  (void)data;
  if (event == WEBKIT_LOAD_FINISHED) {
    printf("loaded %.0f ms after start\n", elapsed_ms());
    fflush(stdout);
  }
}

int main(int argc, char **argv) {
  clock_gettime(CLOCK_MONOTONIC, &started);
  gtk_init(&argc, &argv);
  GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
  gtk_window_set_default_size(GTK_WINDOW(window), 1280, 800);
  WebKitWebView *view = WEBKIT_WEB_VIEW(webkit_web_view_new());
  if (getenv("HEDDLE_FLOOR_NO_COMPOSITING") != NULL) {
    webkit_settings_set_hardware_acceleration_policy(webkit_web_view_get_settings(view),
                                                     WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER);
  }
  g_signal_connect(view, "load-changed", G_CALLBACK(on_load_changed), NULL);
  g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);
  gtk_container_add(GTK_CONTAINER(window), GTK_WIDGET(view));
  webkit_web_view_load_uri(view, argc > 1 ? argv[1] : "about:blank");
  gtk_widget_show_all(window);
  gtk_main();
  return 0;
}
