import type { ReactNode } from 'react';

export const metadata = {
  title: 'ai-guardrails chat',
  description: 'A chat whose model and tools are guarded by ai-guardrails.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body
        style={{
          margin: 0,
          fontFamily: 'system-ui, sans-serif',
          background: '#f6f7f9',
          color: '#1d2330',
        }}
      >
        {children}
      </body>
    </html>
  );
}
