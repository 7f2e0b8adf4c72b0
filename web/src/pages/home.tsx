import { Button } from '../components/ui/button.tsx';

export default function HomePage() {
  return (
    <main>
      <section id="home" className="relative flex min-h-screen items-center justify-center overflow-hidden px-6 text-center">
        <div className="absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(245,185,66,0.25),transparent_60%)]" />
        <div className="relative max-w-3xl">
          <h1 className="text-4xl font-bold text-white sm:text-6xl">Capturing Every Leap, Turn, and Triumph</h1>
          <p className="mt-6 text-lg text-zinc-300">
            Dance competition, stage show and recital photography and videography across New Zealand.
          </p>
          <div className="mt-10 flex flex-wrap justify-center gap-4">
            <Button asChild size="lg">
              <a href="/videos">Video Library</a>
            </Button>
          </div>
        </div>
      </section>
    </main>
  );
}
