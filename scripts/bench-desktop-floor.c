/*
 * The floor under scripts/bench-desktop.sh: a bare GTK window with one WebKitGTK web view and
 * nothing else (no Tauri, no Rust, no app page). It loads URL (default about:blank), prints
 * the milliseconds from its start to the load's end, and then idles until it is killed, so
 * that its memory and its WebKit processes' can be read. Built and run by
 * scripts/bench-desktop-floor.sh.
 *
 * HEDDLE_FLOOR_KNOBS, a comma-separated list, turns on WebKit's own memory knobs, to measure
 * what each saves:
 *   no-compositing   the view's hardware acceleration policy "never", set before it loads
 *                    (what WEBKIT_DISABLE_COMPOSITING_MODE=1 does for every view)
 *   cache-model      the context's cache model "document viewer" (no page or memory cache)
 *   no-page-cache    the back/forward page cache off (wry turns it on)
 *   no-features      WebGL, WebAudio, media, MediaSource, encrypted media, media stream,
 *                    HTML5 database and smooth scrolling off
 *   memory-pressure  a 64 MB memory limit for the web and network processes, so WebKit's
 *                    memory-pressure handler frees caches early (the web process's limit is
 *                    a construct-only property of the context)
 *   late-no-compositing  the policy "never" set only once the main loop runs, after the first
 *                    load has started (where Tauri's `with_webview` would set it)
 *   no-window        no web view at all: the bare GTK window, to compare the app process with
 * HEDDLE_FLOOR_NO_COMPOSITING=1 is the same as the no-compositing knob.
 */
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Whether KNOB is in the comma-separated HEDDLE_FLOOR_KNOBS. */
static gboolean knob(const char *name) {
  const char *list = getenv("HEDDLE_FLOOR_KNOBS");
  if (list == NULL) return FALSE;
  gchar **knobs = g_strsplit(list, ",", -1);
  gboolean found = g_strv_contains((const gchar *const *)knobs, name);
  g_strfreev(knobs);
  return found;
}

static WebKitWebContext *make_context(void) {
  if (!knob("memory-pressure")) return webkit_web_context_get_default();
  WebKitMemoryPressureSettings *pressure = webkit_memory_pressure_settings_new();
  webkit_memory_pressure_settings_set_memory_limit(pressure, 64);
  webkit_memory_pressure_settings_set_conservative_threshold(pressure, 0.2);
  webkit_memory_pressure_settings_set_strict_threshold(pressure, 0.4);
  webkit_memory_pressure_settings_set_poll_interval(pressure, 1.0);
  webkit_website_data_manager_set_memory_pressure_settings(pressure);
  WebKitWebContext *context =
      WEBKIT_WEB_CONTEXT(g_object_new(WEBKIT_TYPE_WEB_CONTEXT, "memory-pressure-settings", pressure, NULL));
  webkit_memory_pressure_settings_free(pressure);
  return context;
}

static void apply_settings(WebKitSettings *settings) {
  if (knob("no-compositing") || getenv("HEDDLE_FLOOR_NO_COMPOSITING") != NULL) {
    webkit_settings_set_hardware_acceleration_policy(settings, WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER);
  }
  if (knob("no-page-cache")) webkit_settings_set_enable_page_cache(settings, FALSE);
  if (knob("no-features")) {
    webkit_settings_set_enable_webgl(settings, FALSE);
    webkit_settings_set_enable_webaudio(settings, FALSE);
    webkit_settings_set_enable_media(settings, FALSE);
    webkit_settings_set_enable_mediasource(settings, FALSE);
    webkit_settings_set_enable_encrypted_media(settings, FALSE);
    webkit_settings_set_enable_media_stream(settings, FALSE);
    webkit_settings_set_enable_html5_database(settings, FALSE);
    webkit_settings_set_enable_smooth_scrolling(settings, FALSE);
  }
}

/* The policy "never", set from the main loop (the late-no-compositing knob). */
static gboolean set_policy_late(gpointer view) {
  webkit_settings_set_hardware_acceleration_policy(webkit_web_view_get_settings(WEBKIT_WEB_VIEW(view)),
                                                   WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER);
  return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
  clock_gettime(CLOCK_MONOTONIC, &started);
  gtk_init(&argc, &argv);
  GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
  gtk_window_set_default_size(GTK_WINDOW(window), 1280, 800);
  g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);
  if (knob("no-window")) {
    gtk_widget_show_all(window);
    printf("loaded %.0f ms after start (no web view)\n", elapsed_ms());
    fflush(stdout);
    gtk_main();
    return 0;
  }
  WebKitWebContext *context = make_context();
  if (knob("cache-model")) webkit_web_context_set_cache_model(context, WEBKIT_CACHE_MODEL_DOCUMENT_VIEWER);
  WebKitWebView *view = WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW, "web-context", context, NULL));
  apply_settings(webkit_web_view_get_settings(view));
  g_signal_connect(view, "load-changed", G_CALLBACK(on_load_changed), NULL);
  gtk_container_add(GTK_CONTAINER(window), GTK_WIDGET(view));
  webkit_web_view_load_uri(view, argc > 1 ? argv[1] : "about:blank");
  gtk_widget_show_all(window);
  if (knob("late-no-compositing")) g_idle_add(set_policy_late, view);
  gtk_main();
  return 0;
}
